#!/usr/bin/env bash
# The simulator: Tollgate's own decision engine on a virtual clock, over modelled traffic or a
# replayed access log; writes a chart (SVG and PNG) and a table (Markdown). Paths are relative to
# where you run it. Builds Tollgate first (as demo.sh does), then runs the simulator module.
#
#   ./simulate.sh simulate simulator/scenarios/interactive.properties    # -> target/simulation/
#   ./simulate.sh replay access.log --rules rules.properties --strip-prefix /myapp/api
#   ./simulate.sh guide                                                  # regenerates docs/guides/tuning/
#   ./simulate.sh help                                                   # the simulator's commands
#   ./simulate.sh --help                                                 # this text
#
# MVN_ARGS adds Maven options (e.g. MVN_ARGS=-Dmaven.repo.local=/path/to/repository).
here="$(pwd)"
. "$(dirname "$0")/scripts/lib.sh"

case "${1:-}" in
  -h | --help) usage; exit 0 ;;
esac
quoted=""
for arg in "$@"; do
  quoted+=" '${arg}'"
done

build_library
# Paths are relative to where the script was run: the simulator runs there.
cd "${here}"
exec "${root}/mvnw" -B -q ${MVN_ARGS:-} -f "${root}/simulator/pom.xml" compile exec:java -Dexec.args="${quoted# }"
