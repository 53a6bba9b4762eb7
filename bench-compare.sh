#!/usr/bin/env bash
# Tollgate as it runs by default against Bucket4j's Hazelcast integration, side by side on one
# instance the benchmark itself creates (as an application providing its own instance does), on each
# Hazelcast version given: trials of one fork each, the two implementations interleaved within each
# round, medians with their minimum and maximum, and the ratio paired round by round.
#
#   ./bench-compare.sh                                5 rounds, Hazelcast 5.3.8 and 5.7.0 (about 35 minutes)
#   ./bench-compare.sh --rounds 3 --hazelcast 5.7.0
#   ./bench-compare.sh --rounds 3 --jvm-options -XX:ActiveProcessorCount=1 --out src/jmh/results/compare-cpus.md
#
# Options (the environment variable in brackets gives the default too):
#   --rounds N               rounds (ROUNDS; 5)
#   --hazelcast VERSION      a Hazelcast version to run on; repeat for more (HAZELCAST_VERSIONS; 5.3.8 5.7.0)
#   --scenario S             keys/caller/load/threads, e.g. hot/client/allowed-heavy/64; repeat for more
#                            (SCENARIOS; the five of the README's table)
#   --jvm-options "OPTIONS"  for the members and callers, e.g. -XX:ActiveProcessorCount=1 or
#                            -Djava.util.concurrent.ForkJoinPool.common.parallelism=8 (JVM_OPTIONS)
#   --out FILE               the report (src/jmh/results/compare.md, which the README links); replaced
#   --help                   this text
#
# The JVM sees this machine's CPUs; on one or two the common fork-join pool has a parallelism of 1.
. "$(dirname "$0")/scripts/lib.sh"

rounds="${ROUNDS:-5}"
versions="${HAZELCAST_VERSIONS:-5.3.8 5.7.0}"
scenarios="${SCENARIOS:-hot/remote-owner/allowed-heavy/16 hot/remote-owner/allowed-heavy/64 hot/client/allowed-heavy/64 \
users/remote-owner/allowed-heavy/64 users/client/allowed-heavy/64}"
jvm_options="${JVM_OPTIONS:-}"
out="${results}/compare.md"
given_versions=""
given_scenarios=""
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --rounds) rounds=$(number "$1" "$(value "$@")"); shift ;;
    --hazelcast) given_versions+=" $(value "$@")"; shift ;;
    --scenario) given_scenarios+=" $(value "$@")"; shift ;;
    --jvm-options) jvm_options=$(value "$@"); shift ;;
    --out) out=$(value "$@"); shift ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
versions="${given_versions:-${versions}}"
scenarios="${given_scenarios:-${scenarios}}"

mkdir -p "$(dirname "${out}")"
: > "${out}"
for version in ${versions}; do
  build_benchmarks -Dhazelcast.version="${version}"
  bench rounds -Dhazelcast.version="${version}" -Dbench.jvm.options="${jvm_options}" \
    -Drounds.args="${rounds} ${out} 'Hazelcast ${version}' tollgate-default,bucket4j ${scenarios}"
done
cat "${out}"
