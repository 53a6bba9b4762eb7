#!/usr/bin/env bash
# The soak run: mixed load (hot keys, 100 000 users with expiring buckets, ledger keys whose counts
# must match exactly, two-limit keys) from every member of a 3-member Hazelcast cluster in one JVM,
# through Tollgate's whole stack; then the counts are checked and the heap after GC compared over
# time. Writes src/jmh/results/soak.md (the file the README links); exits non-zero if a count is off
# or memory kept growing.
#
#   ./soak.sh                            10 minutes, 16 threads
#   ./soak.sh --minutes 30 --threads 32
#   ./soak.sh --help                     this text
. "$(dirname "$0")/scripts/lib.sh"

minutes=10
threads=16
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --minutes) minutes=$(number "$1" "$(value "$@")"); shift ;;
    --threads) threads=$(number "$1" "$(value "$@")"); shift ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done

build_benchmarks
bench soak -Dsoak.args="${minutes} ${threads}"
