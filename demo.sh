#!/usr/bin/env bash
# The demo, one command: builds Tollgate and the sample application (it-tests/src/main), then runs the
# sample on Open Liberty, Payara Micro or WildFly (downloaded by Maven on first use, configured with
# server-config/ as a user would), or as a Quarkus application, in the foreground. Tollgate's store: an
# embedded Hazelcast member on 127.0.0.1 on Liberty, WildFly and Quarkus, Payara's own Data Grid on Payara.
# Ctrl-C stops the server.
#
#   ./demo.sh                 Open Liberty: http://127.0.0.1:9080/tollgate-sample/api/...
#   ./demo.sh payara          Payara Micro 6, same URLs
#   ./demo.sh wildfly         WildFly 39, same URLs (its management interface on 127.0.0.1:9990)
#   ./demo.sh quarkus         Quarkus 3 (Quarkus REST): http://127.0.0.1:9080/api/... (no context root)
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
server=liberty
while [ $# -gt 0 ]; do
  case "$1" in
    -h | --help) usage; exit 0 ;;
    --port) port=$(number "$1" "$(value "$@")"); shift ;;
    liberty | payara | wildfly | quarkus) server="$1" ;;
    *) die "unknown argument '$1'" ;;
  esac
  shift
done
base="http://127.0.0.1:${port}/tollgate-sample/api"
if [ "${server}" = quarkus ]; then
  base="http://127.0.0.1:${port}/api" # a Quarkus application has no context root
fi

echo "Building Tollgate and the sample application ..."
build_library
if [ "${server}" = quarkus ]; then
  build_quarkus_sample
else
  build_sample
fi

declare -A names=([liberty]="Open Liberty" [payara]="Payara Micro" [wildfly]=WildFly [quarkus]=Quarkus)
cat << MSG

Starting ${names[${server}]} with the sample application. When it reports that it has started, try:

  ${base}/search?q=tea     rule 'search': 5 at once, then 1 per second, per client address
  ${base}/status           no limit
  curl loop:  for i in \$(seq 1 8); do curl -s -o /dev/null -w '%{http_code} ' ${base}/search?q=tea; done; echo

Ctrl-C stops the server.

MSG
war="${root}/it-tests/target/tollgate-sample.war"
case "${server}" in
  liberty)
    demo_liberty "${port}" liberty:run
    ;;
  payara)
    jar=$(payara_micro_jar) || exit 1
    # Payara brings its own Hazelcast: the WAR must not bundle one (see the README's install table)
    unpacked="${root}/it-tests/target/payara-demo/war"
    rm -rf "${unpacked}" && mkdir -p "${unpacked}"
    (cd "${unpacked}" && jar xf "${war}") && rm -f "${unpacked}"/WEB-INF/lib/hazelcast-*.jar
    war="${root}/it-tests/target/payara-demo/tollgate-sample.war"
    jar cfM "${war}" -C "${unpacked}" .
    cd "${root}/server-config/payara"
    # shellcheck disable=SC2046
    exec java @jvm.args -Xmx512m -jar "${jar}" $(grep -v '^#' payara-micro.options) \
      --clustername tollgate-demo --name demo --port "${port}" --deploy "${war}"
    ;;
  wildfly)
    home=$(wildfly_home) || exit 1
    "${home}/bin/jboss-cli.sh" --file="${root}/server-config/wildfly/tollgate.cli" > /dev/null
    demo="${root}/it-tests/target/wildfly-demo"
    rm -rf "${demo}"
    cp -r "${home}/standalone" "${demo}"
    cp "${war}" "${demo}/deployments/"
    JAVA_OPTS="-Xmx512m @${root}/server-config/wildfly/jvm.args" exec "${home}/bin/standalone.sh" \
      -Djboss.server.base.dir="${demo}" -Djboss.http.port="${port}"
    ;;
  quarkus)
    # the packaged application, run as Quarkus applications are; the sample's rules as its configuration
    # (config/application.properties of the folder it runs in) and the JVM options Hazelcast asks for
    demo="${root}/it-tests/target/quarkus-demo"
    rm -rf "${demo}" && mkdir -p "${demo}/config"
    cp "${root}/it-tests/src/main/resources/META-INF/microprofile-config.properties" "${demo}/config/application.properties"
    cd "${demo}"
    exec java @"${root}/server-config/quarkus/jvm.args" -Xmx512m -Dquarkus.http.host=127.0.0.1 -Dquarkus.http.port="${port}" \
      -jar "${root}/it-tests/servers/quarkus-app/target/quarkus-app/quarkus-run.jar"
    ;;
esac
