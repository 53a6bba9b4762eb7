#!/usr/bin/env bash
# Tollgate against Bucket4j across a network: three Hazelcast members (and, for the client scenarios, a
# client) whose every packet to each other waits in a relay of the benchmark's own for a fixed delay each
# way, as between hosts. Each member advertises its relay as its public address, so members and clients
# reach it only through the relay. Tollgate as it runs by default, Bucket4j's Hazelcast integration and
# Tollgate with both of its layers off (tollgate-bare: the same engine and store timeout, no coalescing,
# no denial cache) run on the same cluster set-up, in rounds that repeat every delay and scenario, the
# implementations in reverse order every other round. The report gives decisions per second with their
# spread, the p50, p99 and p99.9 latency the callers saw, allocation per decision on loopback, the ratios
# paired round by round, and how long packets actually waited in the relays.
#
#   ./bench-network.sh                                3 rounds, 0, 200 and 1000 µs each way (about 25 minutes)
#   ./bench-network.sh --rounds 5 --delay 1000 --scenario users/client/allowed-heavy/64
#   ./bench-network.sh --hosts                        each member in a JVM and network namespace of its own (root)
#
# Options (the environment variable in brackets gives the default too):
#   --rounds N          rounds (ROUNDS; 3)
#   --delay MICROS      a delay each way, in µs (0: loopback); repeat for more (DELAYS; 0 200 1000)
#   --scenario S        keys/caller/load/threads, e.g. users/client/allowed-heavy/64; repeat for more
#                       (SCENARIOS; hot and users keys, from a member and from a client, 64 threads)
#   --impl A,B,...      the implementations, the first compared with each other one
#                       (IMPLS; tollgate-default,bucket4j,tollgate-bare)
#   --hazelcast VERSION the Hazelcast version (HAZELCAST_VERSION; the build's, 5.3.8)
#   --hosts             hosts of their own: Linux network namespaces tgb0 to tgb3 (198.18.9.1 to .4) on a bridge,
#                       made for the run and removed after it, also when it fails (as root; needs iproute2).
#                       The benchmark's JVM, with the caller, runs in tgb0; each member in a JVM of its own on
#                       the next hosts (member 0 in the caller's JVM when the caller is a member); packets
#                       cross veth pairs and the bridge, and wait in each member's relay when there is a delay
#   --out FILE          the report (src/jmh/results/network.md, which the README links); replaced
#   --help              this text
#
# A delay is held by sleeping, never by spinning: a sleep lasts the delay plus the kernel's timer slack
# less what the relay measured of it at its start; the report says how long packets really waited.
. "$(dirname "$0")/scripts/lib.sh"

rounds="${ROUNDS:-3}"
delays="${DELAYS:-0 200 1000}"
scenarios="${SCENARIOS:-hot/remote-owner/allowed-heavy/64 hot/client/allowed-heavy/64 users/remote-owner/allowed-heavy/64 \
users/client/allowed-heavy/64}"
impls="${IMPLS:-tollgate-default,bucket4j,tollgate-bare}"
version="${HAZELCAST_VERSION:-}"
out="${results}/network.md"
hosts=false
given_delays=""
given_scenarios=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --rounds) rounds=$(number "$1" "$(value "$@")"); shift ;;
    --delay)
      [[ "$(value "$@")" =~ ^[0-9]+$ ]] || die "--delay is a whole number of microseconds, not '$2'"
      given_delays+=" $2"; shift ;;
    --scenario) given_scenarios+=" $(value "$@")"; shift ;;
    --impl) impls=$(value "$@"); shift ;;
    --hazelcast) version=$(value "$@"); shift ;;
    --out) out=$(value "$@"); shift ;;
    --hosts) hosts=true ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
delays="${given_delays:-${delays}}"
scenarios="${given_scenarios:-${scenarios}}"
version_option=()
[ -z "${version}" ] || version_option=(-Dhazelcast.version="${version}")

# The hosts of --hosts: namespace tgb<i> at 198.18.9.<i+1>, its eth0 one end of a veth pair whose other end is on
# the bridge tgbbr. Nothing is routed off the machine: the bridge has no address and no route leads to it.
host_count=4
remove_hosts() {
  local i
  for i in $(seq 0 $((host_count - 1))); do
    if ip netns list | grep -qw "tgb${i}"; then
      ip netns pids "tgb${i}" | xargs -r kill -9 2> /dev/null || true
      ip netns del "tgb${i}"
    fi
    ! ip link show "tgbv${i}" > /dev/null 2>&1 || ip link del "tgbv${i}"
  done
  ! ip link show tgbbr > /dev/null 2>&1 || ip link del tgbbr
}
make_hosts() {
  local i
  remove_hosts # what a run killed before its end left
  at_exit remove_hosts
  ip link add tgbbr type bridge forward_delay 0
  ip link set tgbbr up
  hosts_property=""
  for i in $(seq 0 $((host_count - 1))); do
    ip netns add "tgb${i}"
    ip link add "tgbv${i}" type veth peer name eth0 netns "tgb${i}"
    ip link set "tgbv${i}" master tgbbr up
    ip -n "tgb${i}" addr add "198.18.9.$((i + 1))/24" dev eth0
    ip -n "tgb${i}" link set eth0 up
    ip -n "tgb${i}" link set lo up
    hosts_property+="${hosts_property:+,}tgb${i}@198.18.9.$((i + 1))"
  done
}

if ${hosts}; then
  [ "$(id -u)" = 0 ] || die "--hosts makes network namespaces: run it as root"
  command -v ip > /dev/null 2>&1 || die "--hosts needs ip (Debian: apt-get install iproute2)"
fi
mkdir -p "$(dirname "${out}")"
build_benchmarks "${version_option[@]}"
jvm_options=()
if ${hosts}; then
  make_hosts
  bench_namespace=tgb0
  jvm_options=(-Dbench.jvm.options=-D"tollgate.bench.hosts=${hosts_property}")
fi
# shellcheck disable=SC2086
bench network "${version_option[@]}" "${jvm_options[@]}" \
  -Dnetwork.args="${rounds} ${out} $(echo ${delays} | tr ' ' ',') ${impls} ${scenarios}"
