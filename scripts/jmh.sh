#!/usr/bin/env bash
# Runs the JMH benchmarks under src/test (e.g. RadialNufftBenchmark) with the test classpath.
# Usage: scripts/jmh.sh [JMH arguments, e.g. RadialNufftBenchmark -p coils=32 -p tolerance=1e-3]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
mvn -B -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -DincludeScope=test \
	>/dev/null 2>&1 || mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt \
	-DincludeScope=test
exec java -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" org.openjdk.jmh.Main "${@:-RadialNufftBenchmark}"
