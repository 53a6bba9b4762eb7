#!/usr/bin/env bash
# The simulator: Tollgate's own decision engine on a virtual clock, over modelled traffic or a
# replayed access log; writes a chart (SVG and PNG) and a table (Markdown). Paths are relative to
# where you run it. Builds Tollgate first (as demo.sh does), then runs the simulator module.
#
#   ./simulate.sh simulate simulator/scenarios/interactive.properties    # -> target/simulation/
#   ./simulate.sh replay access.log --rules rules.properties --strip-prefix /myapp/api
#   ./simulate.sh guide                                                  # regenerates docs/tuning/
#   ./simulate.sh help
#
# MVN_ARGS adds Maven options (e.g. MVN_ARGS=-Dmaven.repo.local=/path/to/repository).
set -euo pipefail
root="$(cd "$(dirname "$0")" && pwd)"
# shellcheck disable=SC2086
"$root/mvnw" -B -q ${MVN_ARGS:-} -f "$root/pom.xml" install -DskipTests
quoted=""
for arg in "$@"; do
  quoted+=" '${arg}'"
done
# shellcheck disable=SC2086
exec "$root/mvnw" -B -q ${MVN_ARGS:-} -f "$root/simulator/pom.xml" compile exec:java -Dexec.args="${quoted# }"
