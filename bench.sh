#!/bin/sh
# Tollgate's comparison suite in one run, on one machine and one 3-member Hazelcast cluster per
# trial: the JMH matrix (Tollgate plain and as it runs by default, Bucket4j's Hazelcast
# integration, get+put, get+replace CAS, lock/get/put/unlock, the in-JVM store; throughput,
# latency, allocation per decision), then the over-grant test for each, then the report:
# target/bench/results.md, target/bench/throughput.svg, target/bench/latency-p99.svg.
#
#   ./bench.sh                 the full run: 153 trials, about 35 minutes on a quiet machine
#   ./bench.sh smoke           a reduced matrix with 1-second iterations: a few minutes
#   ./bench.sh full report     only rebuild the report from the results already in target/bench
#   ./bench.sh full over-grant only the over-grant test (phases: jmh, over-grant, report)
#
# Run it on a quiet machine: the members, the client and the callers share its cores.
set -eu
cd "$(dirname "$0")"
exec ./mvnw -B -Pbench -DskipTests test-compile exec:exec@suite -Dsuite.args="${*:-full}"
