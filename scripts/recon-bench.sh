#!/usr/bin/env bash
# Times run("Reconstruct k-space", …) through the ImageJ 1 macro bridge, headless, on this machine: the bundled samples
# and a simulated 32-coil 256² radial scan, CPU and (when usable) GPU, with peak and retained Java heap; writes a
# Markdown table (see docs/benchmarks.md). The GPU machine runs the same harness with `gpu-suite.sh run REPORT.md recon`.
#
#   scripts/recon-bench.sh [REPORT.md] [key=value ...]     default REPORT.md: target/recon-bench.md
#       keys: runs=7 warmup=3 devices=cpu,gpu data=all|samples|radial32 spokes=402 readout=512 coils=32 matrix=256
#   JAVA=/path/to/bin/java  run with another runtime (e.g. the jlink'd one that gpu-suite.sh packs)
#   JAVA_OPTS=...           JVM options (default -Xmx4g, the same as on the GPU machine, so heap figures compare)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
report=target/recon-bench.md
if [ $# -gt 0 ] && [[ "$1" != *=* ]]; then report="$1"; shift; fi
mvn -B -q -o test-compile
mvn -B -q -o dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test >/dev/null
mkdir -p "$(dirname "$report")"
# shellcheck disable=SC2086
exec "${JAVA:-java}" ${JAVA_OPTS:--Xmx4g} -Djava.awt.headless=true \
  -cp "target/test-classes:target/classes:$(cat target/test-classpath.txt)" \
  org.nufftj.command.ReconMacroBenchmark "$report" samples="$root/sample-data" "$@"
