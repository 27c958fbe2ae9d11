#!/usr/bin/env bash
# The GPU suite: packs what the GPU machine needs, and, run there, executes the GPU tests and benchmarks and writes a
# dated report (docs/gpu-report.md is the latest one, committed).
#
#   scripts/gpu-suite.sh pack DIR      (build machine) mvn test-compile; copies classes, test classes, dependency
#                                      jars, a jlink'd Java 17 runtime (tar.gz) and this script into DIR.
#   DIR/gpu-suite.sh run REPORT.md [tests|bench|all] [rows|all] [cpu|nocpu] [atomic,shared]
#                                      (GPU machine, no Java/Maven needed) unpacks the runtime and runs GpuSuite.
#                                      Methods: auto, atomic, shared, shared-threads, output (output-driven, radial
#                                      rows only; e.g. "shared,output").
#
# The GPU machine has no Java, so the runtime travels with the classes (see ../shared/GPU.md).
set -euo pipefail
cmd="${1:-}"; shift || true
case "$cmd" in
pack)
  out="$(realpath -m "${1:?pack DIR}")"
  root="$(cd "$(dirname "$0")/.." && pwd)"
  mkdir -p "$out"
  (cd "$root" && mvn -B -q -o test-compile && \
    mvn -B -q -o dependency:build-classpath -Dmdep.outputFile="$out/classpath.txt" -Dmdep.includeScope=test)
  rm -rf "$out/lib" "$out/classes" "$out/test-classes"
  mkdir -p "$out/lib"
  tr ':' '\n' < "$out/classpath.txt" | while read -r j; do cp "$j" "$out/lib/"; done
  cp -r "$root/target/classes" "$out/classes"
  cp -r "$root/target/test-classes" "$out/test-classes"
  if [ ! -f "$out/jre.tar.gz" ]; then
    jdk="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
    rm -rf "$out/jre"
    "$jdk/bin/jlink" --module-path "$jdk/jmods" --add-modules java.base,java.logging,jdk.unsupported,java.management \
      --strip-debug --no-header-files --no-man-pages --compress=2 --output "$out/jre"
    tar -C "$out" -czf "$out/jre.tar.gz" jre && rm -rf "$out/jre"
  fi
  cp "$0" "$out/gpu-suite.sh"
  du -sh "$out"
  ;;
run)
  here="$(cd "$(dirname "$0")" && pwd)"
  report="${1:?run REPORT.md}"; shift
  jre=/tmp/nufftj-jre
  if [ ! -x "$jre/jre/bin/java" ]; then mkdir -p "$jre" && tar -C "$jre" -xzf "$here/jre.tar.gz"; fi
  cp_="$here/test-classes:$here/classes:$(ls "$here"/lib/*.jar | tr '\n' ':')"
  echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname): $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
  "$jre/jre/bin/java" -Xmx48g -XX:+UseParallelGC -cp "$cp_" org.nufftj.nufft.gpu.GpuSuite "$report" "$@"
  ;;
*)
  echo "usage: $0 pack DIR | run REPORT.md [tests|bench|all] [rows|all] [cpu|nocpu] [methods]" >&2; exit 2;;
esac
