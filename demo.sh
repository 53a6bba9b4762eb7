#!/usr/bin/env bash
# The demo, one command: builds Tollgate and the sample application (it-tests/src/main), then runs the
# sample on Open Liberty (downloaded by Maven on first use) in the foreground, with Tollgate's defaults:
# an embedded Hazelcast member on 127.0.0.1. Ctrl-C stops the server.
#
#   ./demo.sh                 http://127.0.0.1:9080/tollgate-sample/api/...
#   ./demo.sh --port 9081     another port (DEMO_PORT gives the default too)
#   ./demo.sh --help          this text
#
# Then, in another terminal, watch 200s turn into 429s (the rule 'search': 5 at once, 1 more per second,
# per client address):
#
#   for i in $(seq 1 8); do curl -s -o /dev/null -w '%{http_code} ' http://127.0.0.1:9080/tollgate-sample/api/search?q=tea; done; echo
#   curl -i http://127.0.0.1:9080/tollgate-sample/api/search?q=tea
. "$(dirname "$0")/scripts/lib.sh"

port="${DEMO_PORT:-9080}"
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --port) port=$(number "$1" "$(value "$@")"); shift ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
base="http://127.0.0.1:${port}/tollgate-sample/api"

echo "Building Tollgate and the sample application ..."
build_library
build_sample

cat << MSG

Starting Open Liberty with the sample application. When it reports "server ... is ready", try:

  ${base}/search?q=tea     rule 'search': 5 at once, then 1 per second, per client address
  ${base}/status           no limit
  curl loop:  for i in \$(seq 1 8); do curl -s -o /dev/null -w '%{http_code} ' ${base}/search?q=tea; done; echo

Ctrl-C stops the server.

MSG
demo_liberty "${port}" liberty:run
