#!/bin/sh
# What the limiter costs over HTTP: the sample application on Open Liberty with Tollgate's defaults
# (an embedded Hazelcast member), and a closed-loop load generator on the same machine hitting three
# identical endpoints in turn: one under a rule that always allows (the allowed path), one without
# any rule, one under a rule that denies almost everything (the denied path). Writes
# target/bench/http.md. The server is stopped again at the end, whatever happens.
#
#   ./bench-http.sh                      16 client threads, 20 s per endpoint
#   THREADS=32 SECONDS_PER_ENDPOINT=30 ./bench-http.sh
set -eu
cd "$(dirname "$0")"
port="${BENCH_HTTP_PORT:-9090}"
threads="${THREADS:-16}"
seconds="${SECONDS_PER_ENDPOINT:-20}"
base="http://127.0.0.1:${port}/tollgate-sample/api/"
liberty() {
  ./mvnw -B -q -f it-tests -Pdemo -DskipPayara -DskipLiberty -DskipTests -Ddemo.http.port="${port}" "$@"
}

./mvnw -B -q install -DskipTests
liberty package liberty:create liberty:deploy liberty:start
trap 'liberty liberty:stop' EXIT INT TERM

i=0
until curl -fs -o /dev/null "${base}status"; do
  i=$((i + 1))
  if [ "$i" -gt 120 ]; then echo "the sample application did not come up" >&2; exit 1; fi
  sleep 1
done

./mvnw -B -q -Pbench -DskipTests test-compile exec:exec@http \
  -Dhttp.args="${base} ${threads} ${seconds} target/bench/http.md allowed=bench/limited unlimited=bench/open denied=bench/denied"
