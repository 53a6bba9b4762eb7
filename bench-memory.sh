#!/usr/bin/env bash
# Heap per stored bucket, on its owner and on its backup: Tollgate's map against Bucket4j's, each with one limit
# and with three, on a cluster of three members in one JVM. Each store runs on a map with no backup (its owner's
# copy alone) and on one with one backup, as Tollgate configures its map (both copies); the backup's copy is the
# difference. Each run: a bucket in every partition first, then the heap after full GCs before and after as many
# decisions as keys, divided by the keys. Rounds interleave the eight runs; the report gives each copy's median,
# its spread, and what 10 million keys cost a cluster of three and each of its members.
#
#   ./bench-memory.sh                      200 000 keys, 3 rounds (10 to 20 minutes)
#   ./bench-memory.sh --keys 500000 --rounds 5
#
# Options:
#   --keys N      keys per run (200000)
#   --rounds N    rounds (3)
#   --out FILE    the report (src/jmh/results/bucket-memory.md, which docs/explanation/performance.md links); replaced
#   --help        this text
. "$(dirname "$0")/scripts/lib.sh"

keys=200000
rounds=3
out="${results}/bucket-memory.md"
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --keys) keys=$(number "$1" "$(value "$@")"); shift ;;
    --rounds) rounds=$(number "$1" "$(value "$@")"); shift ;;
    --out) out="$(value "$@")"; shift ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done

build_benchmarks
bench bucket-memory -Dmemory.args="${keys} ${rounds} ${out}"
echo "Report: ${out}"
