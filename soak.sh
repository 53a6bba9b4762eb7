#!/bin/sh
# The soak run: mixed load (hot keys, 100 000 users with expiring buckets, ledger keys whose counts
# must match exactly, two-limit keys) from every member of a 3-member Hazelcast cluster in one JVM,
# through Tollgate's whole stack; then the counts are checked and the heap after GC compared over
# time. Writes target/bench/soak.md; exits non-zero if a count is off or memory kept growing.
#
#   ./soak.sh           10 minutes, 16 threads
#   ./soak.sh 30 32     30 minutes, 32 threads
set -eu
cd "$(dirname "$0")"
exec ./mvnw -B -q -Pbench -DskipTests test-compile exec:exec@soak -Dsoak.args="${1:-10} ${2:-16}"
