#!/bin/sh
# What the limiter costs over HTTP, as server CPU per request: the sample application on each server in
# SERVERS (Open Liberty as the demo runs it; Payara Micro with server-config/payara), once per store in
# STORES (hazelcast: Tollgate's default, an embedded member on Liberty and the Data Grid on Payara;
# memory: the in-JVM store), and a closed-loop load generator on the same machine hitting identical
# endpoints: one under a rule that always allows, keyed by the generator's address (a hot key), one
# under such a rule keyed per client (100 000 clients), one without any rule, one under a rule that
# denies almost everything. The endpoints are interleaved in rounds; the server's CPU time per request
# comes from the kernel's counters for the server's process. Writes target/bench/http.md. Each server
# is stopped again, whatever happens.
#
#   ./bench-http.sh                                 16 client threads, 5 rounds of 10 s per endpoint
#   THREADS=32 ROUNDS=7 SERVERS=payara STORES=memory ./bench-http.sh
#   PROFILE=20 ./bench-http.sh                      also profile 20 s of the allowed endpoint (JFR),
#                                                   top items written to target/bench/profile.md
set -eu
cd "$(dirname "$0")"
root="$(pwd)"
port="${BENCH_HTTP_PORT:-9090}"
threads="${THREADS:-16}"
seconds="${SECONDS_PER_ENDPOINT:-10}"
rounds="${ROUNDS:-5}"
servers="${SERVERS:-liberty payara}"
stores="${STORES:-hazelcast memory}"
base="http://127.0.0.1:${port}/tollgate-sample/api/"
report=target/bench/http.md
server_pid=""

liberty() {
  ./mvnw -B -q -f it-tests -Pdemo -DskipPayara -DskipLiberty -DskipTests -Ddemo.http.port="${port}" "$@"
}

start() { # server store
  if [ "$1" = liberty ]; then
    liberty package liberty:create liberty:deploy liberty:start -Dliberty.env.TOLLGATE_STORE="$2"
  else
    (cd server-config/payara && TOLLGATE_STORE="$2" exec java @jvm.args -Xmx512m -jar "${root}/it-tests/target/payara/payara-micro.jar" \
      $(grep -v '^#' payara-micro.options) --clustername tollgate-bench --name bench --port "${port}" \
      --deploy "${root}/it-tests/target/tollgate-sample.war") > "target/bench/payara-$2.log" 2>&1 &
    server_pid=$!
  fi
  i=0
  until curl -fs -o /dev/null "${base}status"; do
    i=$((i + 1))
    if [ "$i" -gt 180 ]; then echo "the sample application did not come up on $1" >&2; exit 1; fi
    sleep 1
  done
  if [ "$1" = liberty ]; then
    server_pid=$(pgrep -f 'ws-server.jar.*tollgate-demo' | head -n 1)
  fi
}

stop() {
  if [ -n "${server_pid}" ] && kill -0 "${server_pid}" 2>/dev/null; then
    if pgrep -f 'ws-server.jar.*tollgate-demo' > /dev/null; then
      liberty liberty:stop
    else
      kill "${server_pid}"
      while kill -0 "${server_pid}" 2>/dev/null; do sleep 1; done
    fi
  fi
  server_pid=""
}

./mvnw -B -q install -DskipTests
./mvnw -B -q -Pbench -DskipTests test-compile
./mvnw -B -q -f it-tests -DskipTests -DskipLiberty package dependency:copy@payara-micro-jar
mkdir -p target/bench
: > "${report}"
[ -z "${PROFILE:-}" ] || : > target/bench/profile.md
trap stop EXIT INT TERM
for server in ${servers}; do
  for store in ${stores}; do
    start "${server}" "${store}"
    ./mvnw -B -q -Pbench -DskipTests exec:exec@http -Dhttp.args="${base} ${threads} ${seconds} ${rounds} ${server_pid} \
${report} '${server}, tollgate.store=${store}' unlimited allowed=bench/limited per-client=bench/per-client \
unlimited=bench/open denied=bench/denied"
    if [ -n "${PROFILE:-}" ]; then
      jfr="${root}/target/bench/profile-${server}-${store}.jfr"
      jcmd "${server_pid}" JFR.start name=bench settings=profile > /dev/null
      ./mvnw -B -q -Pbench -DskipTests exec:exec@http -Dhttp.args="${base} ${threads} ${PROFILE} 1 0 target/bench/profiled.md \
'profiled' allowed allowed=bench/limited"
      jcmd "${server_pid}" JFR.dump name=bench filename="${jfr}" > /dev/null
      jcmd "${server_pid}" JFR.stop name=bench > /dev/null
      ./mvnw -B -q -Pbench -DskipTests exec:exec@jfr -Djfr.args="${jfr} target/bench/profile.md \
'${server}, tollgate.store=${store}: the allowed endpoint, ${PROFILE} s'"
    fi
    stop
  done
done
cat "${report}"
[ -z "${PROFILE:-}" ] || cat target/bench/profile.md
