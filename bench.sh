#!/usr/bin/env bash
# Tollgate's comparison suite in one run, on one machine and one 3-member Hazelcast cluster per
# trial: the JMH matrix (Tollgate plain and as it runs by default, Bucket4j's Hazelcast
# integration, get+put, get+replace CAS, lock/get/put/unlock, the in-JVM store; throughput,
# latency, allocation per decision), then the over-grant test for each, then the report.
#
#   ./bench.sh                   the full run: 153 trials, about 35 minutes on a quiet machine
#   ./bench.sh smoke             a reduced matrix with 1-second iterations: a few minutes
#   ./bench.sh full report       only rebuild the report from the results already in target/bench
#   ./bench.sh full over-grant   only the over-grant test (phases: jmh, over-grant, report)
#   ./bench.sh --help            this text
#
# The report of a full run replaces src/jmh/results/results.md, throughput.svg and latency-p99.svg,
# the files the README links; a smoke run's goes to target/bench. Raw results: target/bench.
# Run it on a quiet machine: the members, the client and the callers share its cores.
. "$(dirname "$0")/scripts/lib.sh"

suite=()
for arg in "$@"; do
  case "${arg}" in
    -h | --help) usage; exit 0 ;;
    full | smoke | jmh | over-grant | report) suite+=("${arg}") ;;
    *) die "unknown argument '${arg}'" ;;
  esac
done

build_benchmarks
bench suite -Dsuite.args="${suite[*]:-full}"
