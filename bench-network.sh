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
#
# Options (the environment variable in brackets gives the default too):
#   --rounds N          rounds (ROUNDS; 3)
#   --delay MICROS      a delay each way, in µs (0: loopback); repeat for more (DELAYS; 0 200 1000)
#   --scenario S        keys/caller/load/threads, e.g. users/client/allowed-heavy/64; repeat for more
#                       (SCENARIOS; hot and users keys, from a member and from a client, 64 threads)
#   --impl A,B,...      the implementations, the first compared with each other one
#                       (IMPLS; tollgate-default,bucket4j,tollgate-bare)
#   --hazelcast VERSION the Hazelcast version (HAZELCAST_VERSION; the build's, 5.3.8)
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
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
delays="${given_delays:-${delays}}"
scenarios="${given_scenarios:-${scenarios}}"
version_option=()
[ -z "${version}" ] || version_option=(-Dhazelcast.version="${version}")

mkdir -p "$(dirname "${out}")"
build_benchmarks "${version_option[@]}"
# shellcheck disable=SC2086
bench network "${version_option[@]}" -Dnetwork.args="${rounds} ${out} $(echo ${delays} | tr ' ' ',') ${impls} ${scenarios}"
