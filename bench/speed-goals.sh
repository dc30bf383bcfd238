#!/usr/bin/env bash
# Prints each speed goal of issue 13 as a ratio against its baseline measured in the same run
# (see bench/src/main/java/io/rdmatrace/bench/SpeedGoals.java for the rows and options):
#   bench/speed-goals.sh [--rows 1,2,3,5,6,7] [--runs N] [--work DIR]
# Builds the jars first when bench/target/benchmarks.jar is missing.
set -euo pipefail
root="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
jar="$root/bench/target/benchmarks.jar"
if [[ ! -f "$jar" ]]; then
    (cd "$root" && mvn -B -q -DskipTests package >&2)
fi
# the JVM flags Chronicle and Arrow need (the root pom's rdmatrace.jvm.flags): -cp ignores the jar's manifest
flags="$(sed -n 's:.*<rdmatrace.jvm.flags>\(.*\)</rdmatrace.jvm.flags>.*:\1:p' "$root/pom.xml")"
# shellcheck disable=SC2086 # the flags are words
# traces go under $TMPDIR/rdmatrace-speed as documented: the JVM itself ignores TMPDIR
exec java $flags -Djava.io.tmpdir="${TMPDIR:-/tmp}" -cp "$jar" io.rdmatrace.bench.SpeedGoals "$@"
