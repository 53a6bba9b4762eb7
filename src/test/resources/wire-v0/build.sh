#!/bin/sh
# Rebuilds tollgate-wire-v0.jar: Tollgate's library jar as of commit 62cb7a6, the last commit whose
# Hazelcast processors speak wire version 0 (no version marker). The mixed-cluster test
# (io.tollgate.internal.hazelcast.MixedVersionClusterTest) runs members on this jar next to members on
# the current code. Run from anywhere inside the repository; it needs git and network access for the
# Maven wrapper, and installs nothing into the local Maven repository (package, not install).
set -eu
COMMIT=62cb7a624ef9a37372a3226229de4dfbc86bc513
here=$(cd "$(dirname "$0")" && pwd)
root=$(git -C "$here" rev-parse --show-toplevel)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git -C "$root" archive "$COMMIT" | tar -x -C "$work"
# A fixed timestamp makes the jar reproducible: the same commit gives the same bytes.
(cd "$work" && ./mvnw -B -ntp -q package -DskipTests -Dproject.build.outputTimestamp=2026-11-23T00:00:00Z)
cp "$work/target/tollgate-0.1.0-SNAPSHOT.jar" "$here/tollgate-wire-v0.jar"
(cd "$here" && sha256sum tollgate-wire-v0.jar)
