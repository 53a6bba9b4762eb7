#!/usr/bin/env bash
# What the limiter costs over HTTP, as server CPU per request: the sample application on each server
# (Open Liberty as the demo runs it; Payara Micro with server-config/payara), once per store
# (hazelcast: Tollgate's default, an embedded member on Liberty and the Data Grid on Payara; memory:
# the in-JVM store), and a closed-loop load generator on the same machine hitting identical endpoints:
# one under a rule that always allows, keyed by the generator's address (a hot key), one under such a
# rule keyed per client (100 000 clients), one without any rule, one under a rule that denies almost
# everything. The endpoints are interleaved in rounds; the server's CPU time per request comes from
# the kernel's counters for the server's process. Each server is stopped again, whatever happens.
#
#   ./bench-http.sh                                      both servers, both stores (about 20 minutes)
#   ./bench-http.sh --server payara --store memory --threads 32 --rounds 7
#   ./bench-http.sh --profile 20                         also profile 20 s of the allowed endpoint (JFR)
#
# Options (the environment variable in brackets gives the default too):
#   --server liberty|payara   run on this server; repeat for both (SERVERS; liberty payara)
#   --store hazelcast|memory  with this store; repeat for both (STORES; hazelcast memory)
#   --threads N               client threads (THREADS; 16)
#   --rounds N                rounds (ROUNDS; 5)
#   --seconds N               seconds per endpoint and round (SECONDS_PER_ENDPOINT; 10)
#   --port N                  the server's HTTP port (BENCH_HTTP_PORT; 9090)
#   --profile N               also record N s of the allowed endpoint with JFR (PROFILE)
#   --help                    this text
#
# Writes src/jmh/results/http.md and, with --profile, src/jmh/results/profile.md (the files the
# README links); server logs and recordings go to target/bench.
. "$(dirname "$0")/scripts/lib.sh"

port="${BENCH_HTTP_PORT:-9090}"
threads="${THREADS:-16}"
seconds="${SECONDS_PER_ENDPOINT:-10}"
rounds="${ROUNDS:-5}"
servers="${SERVERS:-liberty payara}"
stores="${STORES:-hazelcast memory}"
profile="${PROFILE:-}"
given_servers=""
given_stores=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --server)
      case "$(value "$@")" in liberty | payara) given_servers+=" $2" ;; *) die "--server is liberty or payara, not '$2'" ;; esac
      shift ;;
    --store)
      case "$(value "$@")" in hazelcast | memory) given_stores+=" $2" ;; *) die "--store is hazelcast or memory, not '$2'" ;; esac
      shift ;;
    --threads) threads=$(number "$1" "$(value "$@")"); shift ;;
    --rounds) rounds=$(number "$1" "$(value "$@")"); shift ;;
    --seconds) seconds=$(number "$1" "$(value "$@")"); shift ;;
    --port) port=$(number "$1" "$(value "$@")"); shift ;;
    --profile) profile=$(number "$1" "$(value "$@")"); shift ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
servers="${given_servers:-${servers}}"
stores="${given_stores:-${stores}}"
base="http://127.0.0.1:${port}/tollgate-sample/api/"
report="${results}/http.md"
server_pid=""

liberty() {
  demo_liberty "${port}" -q -DskipTests "$@"
}

start() { # server store
  if [ "$1" = liberty ]; then
    liberty package liberty:create liberty:deploy liberty:start -Dliberty.env.TOLLGATE_STORE="$2"
  else
    # shellcheck disable=SC2046
    (cd server-config/payara && TOLLGATE_STORE="$2" exec java @jvm.args -Xmx512m -jar "${payara_jar}" \
      $(grep -v '^#' payara-micro.options) --clustername tollgate-bench --name bench --port "${port}" \
      --deploy "${root}/it-tests/target/tollgate-sample.war") > "${work}/payara-$2.log" 2>&1 &
    server_pid=$!
  fi
  local i=0
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
  if [ -n "${server_pid}" ] && kill -0 "${server_pid}" 2> /dev/null; then
    if pgrep -f 'ws-server.jar.*tollgate-demo' > /dev/null; then
      liberty liberty:stop
    else
      kill "${server_pid}"
      while kill -0 "${server_pid}" 2> /dev/null; do sleep 1; done
    fi
  fi
  server_pid=""
}

build_library
build_benchmarks
build_sample
payara_jar=$(payara_micro_jar)
mkdir -p "${work}" "${results}"
: > "${report}"
[ -z "${profile}" ] || : > "${results}/profile.md"
at_exit stop
for server in ${servers}; do
  for store in ${stores}; do
    start "${server}" "${store}"
    bench http -Dhttp.args="${base} ${threads} ${seconds} ${rounds} ${server_pid} ${report} '${server}, tollgate.store=${store}' \
unlimited allowed=bench/limited per-client=bench/per-client unlimited=bench/open denied=bench/denied"
    if [ -n "${profile}" ]; then
      jfr="${work}/profile-${server}-${store}.jfr"
      jcmd "${server_pid}" JFR.start name=bench settings=profile > /dev/null
      bench http -Dhttp.args="${base} ${threads} ${profile} 1 0 ${work}/profiled.md 'profiled' allowed allowed=bench/limited"
      jcmd "${server_pid}" JFR.dump name=bench filename="${jfr}" > /dev/null
      jcmd "${server_pid}" JFR.stop name=bench > /dev/null
      bench jfr -Djfr.args="${jfr} ${results}/profile.md '${server}, tollgate.store=${store}: the allowed endpoint, ${profile} s'"
    fi
    stop
  done
done
cat "${report}"
[ -z "${profile}" ] || cat "${results}/profile.md"
