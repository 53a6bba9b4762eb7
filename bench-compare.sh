#!/bin/sh
# Tollgate as it runs by default against Bucket4j's Hazelcast integration, side by side on one
# instance the benchmark itself creates (as an application providing its own instance does), on each
# Hazelcast version in HAZELCAST_VERSIONS: trials of one fork each, the two implementations
# interleaved within each of ROUNDS rounds, medians with their minimum and maximum, and the ratio
# paired round by round. Appends to target/bench/compare.md.
#
#   ./bench-compare.sh                       5 rounds, Hazelcast 5.3.8 and 5.7.0 (about 35 minutes)
#   ROUNDS=3 HAZELCAST_VERSIONS=5.7.0 ./bench-compare.sh
#
# The JVM sees this machine's CPUs; on one or two the common fork-join pool has a parallelism of 1.
# JVM_OPTIONS reaches the members and callers, e.g. -XX:ActiveProcessorCount=1 or
# -Djava.util.concurrent.ForkJoinPool.common.parallelism=8 (the common pool of a larger machine).
set -eu
cd "$(dirname "$0")"
rounds="${ROUNDS:-5}"
versions="${HAZELCAST_VERSIONS:-5.3.8 5.7.0}"
scenarios="${SCENARIOS:-hot/remote-owner/allowed-heavy/16 hot/remote-owner/allowed-heavy/64 hot/client/allowed-heavy/64 \
users/remote-owner/allowed-heavy/64 users/client/allowed-heavy/64}"
mkdir -p target/bench
: > target/bench/compare.md
for version in ${versions}; do
  ./mvnw -B -q -Pbench -DskipTests -Dhazelcast.version="${version}" -Dbench.jvm.options="${JVM_OPTIONS:-}" test-compile \
    exec:exec@rounds -Drounds.args="${rounds} target/bench/compare.md 'Hazelcast ${version}' tollgate-default,bucket4j ${scenarios}"
done
cat target/bench/compare.md
