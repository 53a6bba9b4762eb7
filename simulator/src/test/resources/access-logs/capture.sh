#!/usr/bin/env bash
# Captures the access-log fixtures of this folder: runs the sample application (it-tests/src/main) on a
# real Open Liberty server and a real Payara Micro instance with access logging on, each in its default
# format, sends both the same small traffic from two client addresses, stops them and keeps their logs.
#
#   capture.sh <wlp dir> <payara-micro.jar> <tollgate-sample.war> [out dir]
#
# The servers bind 127.0.0.1 only, on ports 28190 (Liberty) and 28191 (Payara Micro), with Tollgate's
# in-memory store (TOLLGATE_STORE=memory: no Hazelcast member, no Data Grid). Both are stopped on exit,
# pass or fail. It starts two servers: run it when nothing else is starting servers on this machine.
set -euo pipefail
wlp="$(cd "$1" && pwd)"; micro="$(readlink -f "$2")"; war="$(readlink -f "$3")"
out="$(readlink -f "${4:-$(dirname "$0")}")"
mkdir -p "$out"
work="$(mktemp -d /tmp/tollgate-capture.XXXXXX)"
liberty_port=28190; payara_port=28191
payara_pid=""
cleanup() {
  [ -n "$payara_pid" ] && kill "$payara_pid" 2>/dev/null && wait "$payara_pid" 2>/dev/null || true
  WLP_USER_DIR="$work/wlp-usr" WLP_OUTPUT_DIR="$work/wlp-out" "$wlp/bin/server" stop capture >/dev/null 2>&1 || true
}
trap cleanup EXIT

# Waits (at most 180 s) until the sample answers.
wait_up() {
  for _ in $(seq 1 180); do
    if curl -s -o /dev/null -w '%{http_code}' "$1/status" 2>/dev/null | grep -q 200; then return 0; fi
    sleep 1
  done
  echo "server at $1 did not come up" >&2; return 1
}

# The traffic: a burst on 'search' from 127.0.0.1 (5 allowed, then 429s), a slower client on 127.0.0.2,
# a shadow rule, a path rule, an unlimited endpoint and a 404; about ten seconds in all.
traffic() {
  local base="$1"
  for i in $(seq 1 9); do curl -s -o /dev/null "$base/search?q=tea$i"; done
  for i in $(seq 1 6); do curl -s -o /dev/null --interface 127.0.0.2 "$base/search?q=coffee"; sleep 0.4; done
  for i in $(seq 1 4); do curl -s -o /dev/null "$base/recommendations"; done
  for i in $(seq 1 3); do curl -s -o /dev/null "$base/items/$i"; curl -s -o /dev/null "$base/status"; done
  curl -s -o /dev/null "$base/no-such-thing"
  sleep 2
  for i in $(seq 1 4); do curl -s -o /dev/null "$base/search?q=later"; sleep 0.3; done
  curl -s -o /dev/null --interface 127.0.0.2 "$base/search?q=last"
}

# ---- Open Liberty: httpAccessLogging with its default logFormat
mkdir -p "$work/wlp-usr/servers/capture/apps"
cp "$war" "$work/wlp-usr/servers/capture/apps/tollgate-sample.war"
cat > "$work/wlp-usr/servers/capture/server.xml" <<XML
<server>
  <featureManager>
    <feature>restfulWS-3.1</feature><feature>cdi-4.0</feature><feature>jsonb-3.0</feature>
    <feature>jsonp-2.1</feature><feature>mpConfig-3.1</feature><feature>servlet-6.0</feature>
  </featureManager>
  <httpAccessLogging id="accessLogging"/>
  <httpEndpoint id="defaultHttpEndpoint" host="127.0.0.1" httpPort="$liberty_port" httpsPort="-1" accessLoggingRef="accessLogging"/>
  <webApplication location="tollgate-sample.war" contextRoot="tollgate-sample"/>
</server>
XML
echo "TOLLGATE_STORE=memory" > "$work/wlp-usr/servers/capture/server.env"
WLP_USER_DIR="$work/wlp-usr" WLP_OUTPUT_DIR="$work/wlp-out" "$wlp/bin/server" start capture >/dev/null
wait_up "http://127.0.0.1:$liberty_port/tollgate-sample/api"
traffic "http://127.0.0.1:$liberty_port/tollgate-sample/api"
WLP_USER_DIR="$work/wlp-usr" WLP_OUTPUT_DIR="$work/wlp-out" "$wlp/bin/server" stop capture >/dev/null
cp "$work/wlp-out/capture/logs/http_access.log" "$out/liberty-default.log"

# ---- Payara Micro: --accesslog with its default format
mkdir -p "$work/payara-logs"
echo "set configs.config.server-config.network-config.network-listeners.network-listener.http-listener.address=127.0.0.1" \
  > "$work/preboot.asadmin"
TOLLGATE_STORE=memory java -Dhazelcast.socket.bind.any=false -Dhazelcast.phone.home.enabled=false -jar "$micro" \
  --nocluster --port "$payara_port" --prebootcommandfile "$work/preboot.asadmin" \
  --accesslog "$work/payara-logs" --accessloginterval 0 --rootdir "$work/payara-root" \
  --deploy "$war" --contextroot tollgate-sample > "$work/payara.out" 2>&1 &
payara_pid=$!
wait_up "http://127.0.0.1:$payara_port/tollgate-sample/api" || { tail -40 "$work/payara.out" >&2; exit 1; }
traffic "http://127.0.0.1:$payara_port/tollgate-sample/api"
kill "$payara_pid"; wait "$payara_pid" 2>/dev/null || true; payara_pid=""
cp "$(ls "$work"/payara-logs/*access_log* | head -1)" "$out/payara-default.log"
rm -rf "$work"
echo "captured $out/liberty-default.log and $out/payara-default.log"
