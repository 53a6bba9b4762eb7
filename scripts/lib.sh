# What the scripts at the repository's root share; each sources it first:
#
#   . "$(dirname "$0")/scripts/lib.sh"
#
# It stops at the first failing command, moves to the repository's root, and offers: the script's
# --help (its header comment), option parsing helpers, a Java 17+ check, the Maven builds the scripts
# need, where the benchmarks' results go, and clean-up steps that run however the script ends.
# MVN_ARGS adds Maven options to every build (e.g. MVN_ARGS=-Dmaven.repo.local=/path/to/repository).

set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "${root}"

# The reports the README links (src/jmh/results), and the benchmarks' raw results and logs.
results="${root}/src/jmh/results"
work="${root}/target/bench"

# --help: the script's header comment, from the line after the shebang to the first line that is not
# a comment.
usage() {
  sed -n '2,/^[^#]/s/^# \{0,1\}//p' "$0"
}

# An error in the arguments: the message, a pointer to --help, exit status 2.
die() {
  echo "$(basename "$0"): $*" >&2
  echo "See $(basename "$0") --help" >&2
  exit 2
}

# value "$@": the value of the option in $1, or an error if it has none. Use as
#   --port) port=$(value "$@"); shift ;;
value() {
  [ $# -ge 2 ] && [ -n "$2" ] || die "$1 needs a value"
  printf '%s' "$2"
}

# number NAME VALUE: VALUE if it is a positive whole number, else an error.
number() {
  [[ "$2" =~ ^[1-9][0-9]*$ ]] || die "$1 must be a positive whole number, not '$2'"
  printf '%s' "$2"
}

# Java 17 or later on the PATH, or an error saying so.
require_java() {
  command -v java > /dev/null 2>&1 || { echo "Java 17 or later is needed on the PATH" >&2; exit 1; }
  local major
  major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
  [ "${major%%.*}" -ge 17 ] 2> /dev/null || { echo "Java 17 or later is needed; found ${major}" >&2; exit 1; }
}

# The Maven wrapper, batch mode, with MVN_ARGS.
mvnw() {
  # shellcheck disable=SC2086
  "${root}/mvnw" -B -ntp ${MVN_ARGS:-} "$@"
}

# Tollgate installed for the it-tests and the simulator (no tests run).
build_library() {
  require_java
  mvnw -q install -DskipTests
}

# The sample application's WAR (it-tests/target/tollgate-sample.war); needs build_library first.
build_sample() {
  mvnw -q -f it-tests package -DskipTests "$@"
}

# The sample application built by Quarkus (it-tests/servers/quarkus-app/target/quarkus-app/quarkus-run.jar), with
# Tollgate's Quarkus extension (quarkus/); needs build_library first.
build_quarkus_sample() {
  mvnw -q -f quarkus install -DskipTests && mvnw -q -f it-tests install -DskipTests \
    && mvnw -q -f it-tests/servers/quarkus-app package -DskipTests
}

# demo_liberty PORT [MAVEN ARGUMENTS]: Maven on the demo's Open Liberty server, the sample on PORT
# (it-tests, profile demo; the runtime the parent pom names, in it-tests/target/liberty).
demo_liberty() {
  local port="$1"
  shift
  mvnw -f it-tests -P demo -Ddemo.http.port="${port}" "$@"
}

# The Payara Micro jar of the it-tests, fetched by Maven; prints its path.
payara_micro_jar() {
  mvnw -q -f it-tests/servers/payara dependency:copy@payara-micro-jar >&2
  echo "${root}/it-tests/servers/payara/target/payara/payara-micro.jar"
}

# The WildFly distribution of the it-tests, fetched and unpacked by Maven; prints its folder.
wildfly_home() {
  mvnw -q -f it-tests/servers/wildfly dependency:unpack@wildfly-dist >&2
  local home
  for home in "${root}"/it-tests/servers/wildfly/target/wildfly/wildfly-*; do :; done
  [ -x "${home}/bin/standalone.sh" ] || die "no WildFly in it-tests/servers/wildfly/target/wildfly"
  echo "${home}"
}

# build_benchmarks [MAVEN OPTIONS]: the benchmarks compiled (target/bench-build), ready for bench.
build_benchmarks() {
  require_java
  mvnw -q -Pbench -DskipTests test-compile "$@"
}

# bench EXECUTION [MAVEN OPTIONS]: one of the bench profile's programs (jmh, suite, rounds, network, http, jfr,
# soak, bucket-memory), reports to ${results}. With bench_namespace set, it runs in that network namespace,
# offline (build_benchmarks fetched what it needs).
bench_namespace=""
bench() {
  local execution="$1" in_namespace=()
  shift
  [ -z "${bench_namespace}" ] || in_namespace=(ip netns exec "${bench_namespace}")
  # shellcheck disable=SC2086
  "${in_namespace[@]}" "${root}/mvnw" -B -ntp ${bench_namespace:+-o} ${MVN_ARGS:-} -q -Pbench -DskipTests \
    -Dbench.results="${results}" "exec:exec@${execution}" "$@"
}

# at_exit COMMAND...: run COMMAND when the script ends, whether it succeeds, fails or is interrupted;
# the last registered runs first.
cleanups=()
at_exit() {
  cleanups=("$*" "${cleanups[@]}")
}
run_cleanups() {
  local status=$? step
  trap - EXIT INT TERM
  for step in "${cleanups[@]}"; do
    eval "${step}" || true
  done
  exit "${status}"
}
trap run_cleanups EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
