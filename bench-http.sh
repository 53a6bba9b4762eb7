#!/usr/bin/env bash
# What the limiter costs over HTTP, as server CPU per request: the sample application on each server
# (Open Liberty as the demo runs it; Payara Micro with server-config/payara and the WAR without its
# Hazelcast, as the README says; on request WildFly, its standalone.xml configured with
# server-config/wildfly/tollgate.cli), once per store (hazelcast: Tollgate's default, an embedded
# member on Liberty and WildFly and the Data Grid on Payara; memory: the in-JVM store), and a load
# generator on the same machine hitting identical endpoints: one under a rule that always allows,
# keyed by the generator's address (a hot key), one under such a rule keyed per client (100 000
# clients), one without any rule, one under a rule that denies almost everything. The endpoints are
# interleaved in rounds, their order reversed every other round; the server's CPU time per request
# comes from the kernel's counters for the server's process. Each server is stopped again, whatever
# happens.
#
# The load is open loop by default: a fixed rate (2000 requests/s, well below what the servers answer
# on 2 cores: about 11 000/s on Liberty and 9 500/s on Payara without a rule), each request sent at
# its due time whether or not earlier ones were answered, its latency counted from that time (no
# coordinated omission). Below saturation, the CPU per request is what a request costs, not what
# contention with the load generator adds to it; the server's background work (its timers,
# Hazelcast's heartbeats) is spread over fewer requests than at saturation, alike for every endpoint.
# The report gives the achieved rate and warns when it falls below 95 % of the asked one (the server
# did not keep up), p50, p99 and p99.9, and the latency each endpoint adds to the endpoint without a
# rule. --rate max runs the closed loop instead: each client thread sends its next request when the
# previous answer arrives, as fast as the server goes.
#
#   ./bench-http.sh                                      Liberty and Payara, both stores (about 25 minutes)
#   ./bench-http.sh --server wildfly --store memory      WildFly only, in-memory store
#   ./bench-http.sh --server payara --rate 4000 --rounds 7
#   ./bench-http.sh --rate max --threads 32              closed loop, as fast as it goes
#   ./bench-http.sh --profile 20                         also profile 20 s of the allowed endpoint (JFR)
#
# Options (the environment variable in brackets gives the default too):
#   --server liberty|payara|wildfly  run on this server; repeat for several (SERVERS; liberty payara)
#   --store hazelcast|memory  with this store; repeat for both (STORES; hazelcast memory)
#   --rate R|max              requests per second in all, open loop; max: closed loop (RATE; 2000)
#   --threads N               client threads (THREADS; 16)
#   --rounds N                rounds (ROUNDS; 5)
#   --seconds N               seconds per endpoint and round (SECONDS_PER_ENDPOINT; 10)
#   --port N                  the server's HTTP port (BENCH_HTTP_PORT; 9090); WildFly's management
#                             interface on N + 900, its HTTPS on N + 353
#   --profile N               also record the allowed endpoint with JFR: N s at full speed (its warm-up),
#                             then N s at the same rate (PROFILE)
#   --help                    this text
#
# Each round runs every endpoint for --seconds, after warm-up rounds at full speed until the server's JIT
# compiler settles (under 3 % of its CPU in a round; at most 6 rounds): a server and store take about
# (rounds + 3) x 4 x seconds plus its start, 5 minutes with the defaults. The report also gives the
# server's CPU per request by thread (kernel time included): where an endpoint's extra CPU goes.
# Writes src/jmh/results/http.md and, with --profile, src/jmh/results/profile.md (the files the
# README links); server logs, the servers' copies and recordings go to target/bench.
. "$(dirname "$0")/scripts/lib.sh"

port="${BENCH_HTTP_PORT:-9090}"
threads="${THREADS:-16}"
seconds="${SECONDS_PER_ENDPOINT:-10}"
rounds="${ROUNDS:-5}"
rate="${RATE:-2000}"
servers="${SERVERS:-liberty payara}"
stores="${STORES:-hazelcast memory}"
profile="${PROFILE:-}"
given_servers=""
given_stores=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --server)
      case "$(value "$@")" in liberty | payara | wildfly) given_servers+=" $2" ;; *) die "--server is liberty, payara or wildfly, not '$2'" ;; esac
      shift ;;
    --store)
      case "$(value "$@")" in hazelcast | memory) given_stores+=" $2" ;; *) die "--store is hazelcast or memory, not '$2'" ;; esac
      shift ;;
    --rate) rate=$(value "$@"); shift ;;
    --threads) threads=$(number "$1" "$(value "$@")"); shift ;;
    --rounds) rounds=$(number "$1" "$(value "$@")"); shift ;;
    --seconds) seconds=$(number "$1" "$(value "$@")"); shift ;;
    --port) port=$(number "$1" "$(value "$@")"); shift ;;
    --profile) profile=$(number "$1" "$(value "$@")"); shift ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
[ "${rate}" = max ] || [[ "${rate}" =~ ^[1-9][0-9]*$ ]] || die "--rate is a positive whole number or max, not '${rate}'"
servers="${given_servers:-${servers}}"
stores="${given_stores:-${stores}}"
base="http://127.0.0.1:${port}/tollgate-sample/api/"
report="${results}/http.md"
war="${root}/it-tests/target/tollgate-sample.war"
load=""                             # HttpLoad's mode: --rate R, or nothing for the closed loop
[ "${rate}" = max ] || load="--rate ${rate}"
running=""                          # the server started and not yet stopped
server_pid=""                       # its JVM
launcher_pid=""                     # what started it: the subshell that execs Payara, WildFly's standalone.sh
server_dir=""                       # WildFly's copy of standalone/

liberty() {
  demo_liberty "${port}" -q -DskipTests "$@"
}

# Payara has a Hazelcast of its own (the Data Grid): the WAR without the one it bundles, as the README
# says and demo.sh does (target/bench/payara/tollgate-sample.war: the file's name is the context root).
payara_war() {
  local unpacked="${work}/payara/war"
  rm -rf "${work}/payara" && mkdir -p "${unpacked}"
  (cd "${unpacked}" && jar xf "${war}") && rm -f "${unpacked}"/WEB-INF/lib/hazelcast-*.jar
  jar cfM "${work}/payara/tollgate-sample.war" -C "${unpacked}" .
  echo "${work}/payara/tollgate-sample.war"
}

start() { # server store
  # something else on the port would be measured instead of the server started here
  if curl -s -o /dev/null --max-time 5 "http://127.0.0.1:${port}/"; then
    echo "port ${port} is in use already: stop what listens there, or choose another with --port" >&2
    exit 1
  fi
  running="$1"
  case "$1" in
    liberty)
      liberty package liberty:create liberty:deploy liberty:start -Dliberty.env.TOLLGATE_STORE="$2"
      ;;
    payara)
      # shellcheck disable=SC2046
      (cd server-config/payara && TOLLGATE_STORE="$2" exec java @jvm.args -Xmx512m -jar "${payara_jar}" \
        $(grep -v '^#' payara-micro.options) --clustername tollgate-bench --name bench --port "${port}" \
        --deploy "${payara_sample}") > "${work}/payara-$2.log" 2>&1 &
      launcher_pid=$!
      server_pid=${launcher_pid}
      ;;
    wildfly)
      # a copy of the configured standalone/ of its own, the WAR in its deployments, and the JVM options
      # added to standalone.conf's as the README says; standalone.sh in the background mode, which
      # writes the JVM's process id and passes a TERM on to it
      server_dir="${work}/wildfly-$2"
      rm -rf "${server_dir}" && cp -r "${wildfly}/standalone" "${server_dir}"
      cp "${war}" "${server_dir}/deployments/"
      # shellcheck disable=SC2016 # $JAVA_OPTS is standalone.conf's, expanded there
      printf '. "%s"\nJAVA_OPTS="$JAVA_OPTS @%s"\n' "${wildfly}/bin/standalone.conf" \
        "${root}/server-config/wildfly/jvm.args" > "${server_dir}/standalone.conf"
      (RUN_CONF="${server_dir}/standalone.conf" LAUNCH_JBOSS_IN_BACKGROUND=1 JBOSS_PIDFILE="${server_dir}/server.pid" \
        TOLLGATE_STORE="$2" exec "${wildfly}/bin/standalone.sh" -Djboss.server.base.dir="${server_dir}" \
        -Djboss.http.port="${port}" -Djboss.https.port=$((port + 353)) \
        -Djboss.management.http.port=$((port + 900))) > "${work}/wildfly-$2.log" 2>&1 &
      launcher_pid=$!
      ;;
  esac
  local i=0
  until curl -fs -o /dev/null "${base}status"; do
    i=$((i + 1))
    if [ "$i" -gt 180 ]; then echo "the sample application did not come up on $1 (logs in ${work})" >&2; exit 1; fi
    if [ -n "${launcher_pid}" ] && ! kill -0 "${launcher_pid}" 2> /dev/null; then
      echo "$1 ended before the sample application came up (logs in ${work})" >&2; exit 1
    fi
    sleep 1
  done
  case "$1" in
    liberty) server_pid=$(pgrep -f 'ws-server.jar.*tollgate-demo' | head -n 1) ;;
    wildfly) server_pid=$(cat "${server_dir}/server.pid") ;;
  esac
  [ -n "${server_pid}" ] || { echo "no process id for $1" >&2; exit 1; }
}

# ends process $1 (TERM, then KILL after a minute) and waits for it
end_process() {
  local i=0
  kill "$1" 2> /dev/null || return 0
  while kill -0 "$1" 2> /dev/null; do
    i=$((i + 1))
    if [ "$i" -gt 60 ]; then kill -KILL "$1" 2> /dev/null || true; fi
    sleep 1
  done
}

stop() {
  case "${running}" in
    liberty)
      if pgrep -f 'ws-server.jar.*tollgate-demo' > /dev/null; then liberty liberty:stop; fi
      ;;
    payara | wildfly)
      # WildFly's JVM may have started without the script knowing its id yet
      if [ -z "${server_pid}" ] && [ -n "${server_dir}" ] && [ -s "${server_dir}/server.pid" ]; then
        server_pid=$(cat "${server_dir}/server.pid")
      fi
      [ -z "${server_pid}" ] || end_process "${server_pid}"
      [ -z "${launcher_pid}" ] || end_process "${launcher_pid}"
      ;;
  esac
  running=""
  server_pid=""
  launcher_pid=""
  server_dir=""
}

build_library
build_benchmarks
build_sample
mkdir -p "${work}" "${results}"
case " ${servers} " in *" payara "*)
  payara_jar=$(payara_micro_jar)
  payara_sample=$(payara_war) ;;
esac
case " ${servers} " in *" wildfly "*)
  wildfly=$(wildfly_home)
  "${wildfly}/bin/jboss-cli.sh" --file="${root}/server-config/wildfly/tollgate.cli" > /dev/null ;;
esac
: > "${report}"
[ -z "${profile}" ] || : > "${results}/profile.md"
at_exit stop
for server in ${servers}; do
  for store in ${stores}; do
    start "${server}" "${store}"
    bench http -Dhttp.args="${load} ${base} ${threads} ${seconds} ${rounds} ${server_pid} ${report} '${server}, tollgate.store=${store}' \
unlimited allowed=bench/limited per-client=bench/per-client unlimited=bench/open denied=bench/denied"
    if [ -n "${profile}" ]; then
      jfr="${work}/profile-${server}-${store}.jfr"
      jcmd "${server_pid}" JFR.start name=bench settings=profile > /dev/null
      bench http -Dhttp.args="${load} ${base} ${threads} ${profile} 1 0 ${work}/profiled.md 'profiled' allowed allowed=bench/limited"
      jcmd "${server_pid}" JFR.dump name=bench filename="${jfr}" > /dev/null
      jcmd "${server_pid}" JFR.stop name=bench > /dev/null
      bench jfr -Djfr.args="${jfr} ${results}/profile.md '${server}, tollgate.store=${store}: the allowed endpoint, ${profile} s'"
    fi
    stop
  done
done
cat "${report}"
[ -z "${profile}" ] || cat "${results}/profile.md"
