#!/bin/sh
# What the limiter costs over HTTP, as server CPU per request: the sample application on Open Liberty,
# once per store in STORES (hazelcast: Tollgate's default, an embedded Hazelcast member; memory: the
# in-JVM store), and a closed-loop load generator on the same machine hitting identical endpoints:
# one under a rule that always allows, keyed by the generator's address (a hot key), one under such a
# rule keyed per client (100 000 clients), one without any rule, one under a rule that denies almost
# everything. The endpoints are interleaved in rounds; the server's CPU time per request comes from
# the kernel's counters for the server's process. Appends to target/bench/http.md. Each server is
# stopped again, whatever happens.
#
#   ./bench-http.sh                                 16 client threads, 5 rounds of 10 s per endpoint
#   THREADS=32 ROUNDS=7 SECONDS_PER_ENDPOINT=10 STORES=memory ./bench-http.sh
#   PROFILE=20 ./bench-http.sh                      also profile 20 s of the allowed endpoint (JFR),
#                                                   top items appended to target/bench/profile.md
set -eu
cd "$(dirname "$0")"
port="${BENCH_HTTP_PORT:-9090}"
threads="${THREADS:-16}"
seconds="${SECONDS_PER_ENDPOINT:-10}"
rounds="${ROUNDS:-5}"
stores="${STORES:-hazelcast memory}"
base="http://127.0.0.1:${port}/tollgate-sample/api/"
report=target/bench/http.md
liberty() {
  ./mvnw -B -q -f it-tests -Pdemo -DskipPayara -DskipLiberty -DskipTests -Ddemo.http.port="${port}" "$@"
}

./mvnw -B -q install -DskipTests
./mvnw -B -q -Pbench -DskipTests test-compile
mkdir -p target/bench
: > "${report}"
[ -z "${PROFILE:-}" ] || : > target/bench/profile.md
trap 'liberty liberty:stop' EXIT INT TERM
for store in ${stores}; do
  liberty package liberty:create liberty:deploy liberty:start -Dliberty.env.TOLLGATE_STORE="${store}"
  i=0
  until curl -fs -o /dev/null "${base}status"; do
    i=$((i + 1))
    if [ "$i" -gt 120 ]; then echo "the sample application did not come up" >&2; exit 1; fi
    sleep 1
  done
  pid=$(pgrep -f 'ws-server.jar.*tollgate-demo' | head -n 1)
  ./mvnw -B -q -Pbench -DskipTests exec:exec@http -Dhttp.args="${base} ${threads} ${seconds} ${rounds} ${pid} ${report} \
'Open Liberty, tollgate.store=${store}' unlimited allowed=bench/limited per-client=bench/per-client unlimited=bench/open \
denied=bench/denied"
  if [ -n "${PROFILE:-}" ]; then
    jfr="$(pwd)/target/bench/profile-${store}.jfr"
    jcmd "${pid}" JFR.start name=bench settings=profile > /dev/null
    ./mvnw -B -q -Pbench -DskipTests exec:exec@http -Dhttp.args="${base} ${threads} ${PROFILE} 1 0 target/bench/profiled.md \
'profiled' allowed allowed=bench/limited"
    jcmd "${pid}" JFR.dump name=bench filename="${jfr}" > /dev/null
    jcmd "${pid}" JFR.stop name=bench > /dev/null
    ./mvnw -B -q -Pbench -DskipTests exec:exec@jfr -Djfr.args="${jfr} target/bench/profile.md \
'Open Liberty, tollgate.store=${store}: the allowed endpoint, ${PROFILE} s'"
  fi
  liberty liberty:stop
done
cat "${report}"
[ -z "${PROFILE:-}" ] || cat target/bench/profile.md
