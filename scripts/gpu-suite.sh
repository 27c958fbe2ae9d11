#!/usr/bin/env bash
# The GPU suite: packs what the GPU machine needs, and, run there, executes the GPU tests and benchmarks and writes a
# dated report (docs/gpu-report.md is the latest one, committed).
#
#   scripts/gpu-suite.sh pack DIR      (build machine) mvn test-compile; copies classes, test classes, dependency
#                                      jars, sample-data/, a jlink'd Java 17 runtime (tar.gz) and this script into DIR
#                                      (NUFFTJ_PACK_SAMPLES=0: no samples, no fatbins; NUFFTJ_PACK_LEAN=1: the benchmark
#                                      modes' jars and test classes only, to fit beside cuFINUFFT's source).
#   DIR/gpu-suite.sh run REPORT.md [tests|bench|all|exact|fft|transfer|fk|matrix|stream|setpts|matched|coils|tuned] [rows|all] [cpu|nocpu] [atomic,shared]
#                                      (NUFFTJ_TESTS_FROM=REPORT.md of an earlier "tests" run puts its test
#                                      sections into a "bench" report: the full run no longer fits one 10-minute call)
#                                      (NUFFTJ_FFT=own|cufft picks the GPU FFT; NUFFTJ_HIDE_CUFFT=1 hides cuFFT's
#                                      libraries for the run, as on a driver-only machine; NUFFTJ_CLASSES=A,B runs
#                                      only those test classes; NUFFTJ_SUITE_OPTS adds JVM options, e.g.
#                                      -Dnufftj.spread3d=atomic for an A/B; NUFFTJ_REF=OUT.csv of scripts/cufinufft-bench.sh
#                                      run in the same call: the ref columns are cuFINUFFT measured there;
#                                      "matched" [rows] [method]: its rows against ours at 100, 30, 10, 3, 1 × their ε, the
#                                      fastest of ours at equal or lower achieved error;
#                                      "tuned" [rows]: per row and direction a quick tuning run, then the heuristic's
#                                      plan and the winner timed device-resident beside NUFFTJ_REF)
#                                      (GPU machine, no Java/Maven needed) unpacks the runtime and runs GpuSuite.
#   DIR/gpu-suite.sh run OUT.txt cli ARGS... | run OUT.txt jmh ARGS...
#                                      the same machine: a nufft-j command line, or a JMH benchmark of the test classes.
#   DIR/gpu-suite.sh run REPORT.md recon [key=value ...]
#                                      the same machine: run("Reconstruct k-space", …) timed through the ImageJ 1 macro
#                                      bridge, CPU and GPU, with Java heap (ReconMacroBenchmark, scripts/recon-bench.sh;
#                                      keys as there, e.g. runs=7 devices=cpu,gpu data=all).
#                                      Methods: auto, atomic, shared[@AxBxC bins], output (output-driven, radial
#                                      rows only; e.g. "shared,output").
#
# The GPU machine has no Java, so the runtime travels with the classes (see ../shared/GPU.md). Its modules: ImageJ 1
# needs java.desktop even headless (it pulls in java.xml, java.prefs, java.datatransfer); java.management gives the
# heap pools; java.scripting, as in Fiji, for SciJava's script service (a full Context); jdk.incubator.vector for the
# CPU engine's vector loops. jlink --compress=0 because the image is gzipped anyway: 25 MB as .tar.gz instead of 31 MB with
# --compress=2 (everything sent to the GPU machine must stay under 64 MiB).
set -euo pipefail
cmd="${1:-}"; shift || true
case "$cmd" in
pack)
  out="$(realpath -m "${1:?pack DIR}")"
  root="$(cd "$(dirname "$0")/.." && pwd)"
  mkdir -p "$out"
  (cd "$root" && mvn -B -q -o test-compile && \
    mvn -B -q -o dependency:build-classpath -Dmdep.outputFile="$out/classpath.txt" -Dmdep.includeScope=test)
  rm -rf "$out/lib" "$out/classes" "$out/test-classes" "$out/sample-data"
  mkdir -p "$out/lib"
  # ArchUnit, the FFTW/JavaCPP jars (FftBenchmark, test scope) and JCuda's Windows natives stay behind: the suite does
  # not use them, and the upload is limited to 64 MiB. JMH (0.6 MB with its option parser) travels, for
  # `run OUT.txt jmh ...`.
  tr ':' '\n' < "$out/classpath.txt" | grep -vE '/(archunit-[^/]*|fftw-[^/]*|javacpp-[^/]*|[^/]*-windows-x86_64)\.jar$' |
    while read -r j; do cp "$j" "$out/lib/"; done
  # JCuda's natives jar also holds the NVPTX compiler's binding (23.7 MB unpacked, 8 MB of the jar), which NUFFT-J never
  # loads (its kernels come as fatbins): dropped from the copy, which keeps the upload under 64 MiB.
  python3 - "$out"/lib/jcuda-natives-*-linux-x86_64.jar <<'PY'
import os, sys, zipfile
for jar in sys.argv[1:]:
    with zipfile.ZipFile(jar) as z, zipfile.ZipFile(jar + ".tmp", "w", zipfile.ZIP_DEFLATED) as w:
        for e in z.infolist():
            if "JNvPTXCompiler" not in e.filename: w.writestr(e, z.read(e.filename))
    os.replace(jar + ".tmp", jar)
PY
  cp -r "$root/target/classes" "$out/classes"
  cp -r "$root/target/test-classes" "$out/test-classes"
  # The sample data travels too, unless NUFFTJ_PACK_SAMPLES=0: a pack inside the checkout, whose sample-data/ and
  # kernel fatbins (src/main/resources) the GPU machine receives anyway (upload limit); run it with
  # NUFFTJ_CHECKOUT=<checkout>, which supplies both.
  if [ "${NUFFTJ_PACK_SAMPLES:-1}" = 0 ]; then
    rm -f "$out"/classes/org/nufftj/gpu/*.fatbin
  else
    cp -r "$root/sample-data" "$out/sample-data"
  fi
  modules=java.base,java.logging,jdk.unsupported,java.management,java.desktop,java.scripting,jdk.incubator.vector
  if [ ! -f "$out/jre.tar.gz" ] || [ "$(cat "$out/jre.modules" 2>/dev/null)" != "$modules" ]; then
    jdk="${JAVA_HOME:-/usr/lib/jvm/java-17-openjdk-amd64}"
    rm -rf "$out/jre" "$out/jre.tar.gz" "$out/jre.modules"
    "$jdk/bin/jlink" --module-path "$jdk/jmods" --add-modules "$modules" \
      --strip-debug --no-header-files --no-man-pages --compress=0 --output "$out/jre"
    echo "$modules" > "$out/jre/modules.txt"
    tar -C "$out" -czf "$out/jre.tar.gz" jre && rm -rf "$out/jre"
    echo "$modules" > "$out/jre.modules"
  fi
  # NUFFTJ_PACK_LEAN=1: a pack for the benchmark modes beside cuFINUFFT's source (.gpu/cuf, 6.7 MB), where the
  # checkout, the pack and it must stay under the 64 MiB upload: without JMH and its option parser, ImageJ 1, jhdf and
  # lz4-java (the commands' and the file readers' jars) and the test classes outside org.nufftj.nufft, kernel and
  # trajectory (GpuSuite's benchmark modes need none of them; its "tests" and "recon" modes and `jmh` do: pack without
  # it for those). The sixth session's call 5 of 2026-11-29 ran `matched` from such a pack.
  if [ "${NUFFTJ_PACK_LEAN:-0}" = 1 ]; then
    rm -f "$out"/lib/jmh-*.jar "$out"/lib/jopt-*.jar "$out"/lib/ij-*.jar "$out"/lib/lz4-java-*.jar "$out"/lib/jhdf-*.jar
    for d in "$out"/test-classes/org/nufftj/*/; do
      case "$(basename "$d")" in nufft|kernel|trajectory) ;; *) rm -rf "$d" ;; esac
    done
  fi
  cp "$0" "$out/gpu-suite.sh"
  du -sh "$out"
  ;;
run)
  here="$(cd "$(dirname "$0")" && pwd)"
  samples="${NUFFTJ_SAMPLES:-${NUFFTJ_CHECKOUT:+$NUFFTJ_CHECKOUT/sample-data}}"
  samples="${samples:-$here/sample-data}"
  if ! ls "$here"/classes/org/nufftj/gpu/*.fatbin >/dev/null 2>&1; then
    cp "${NUFFTJ_CHECKOUT:?a pack without kernels: set NUFFTJ_CHECKOUT to the checkout}"/src/main/resources/org/nufftj/gpu/*.fatbin \
      "$here/classes/org/nufftj/gpu/"
  fi
  report="${1:?run REPORT.md}"; shift
  jre=/tmp/nufftj-jre
  if [ ! -x "$jre/jre/bin/java" ] || ! cmp -s "$jre/jre/modules.txt" "$here/jre.modules"; then
    rm -rf "$jre" && mkdir -p "$jre" && tar -C "$jre" -xzf "$here/jre.tar.gz"
  fi
  cp_="$here/test-classes:$here/classes:$(ls "$here"/lib/*.jar | tr '\n' ':')"
  # The CPU engine's vector loops (issue 10) as the launcher runs them for bench: the incubator module is added.
  vec="--add-modules=jdk.incubator.vector"
  if [ "${NUFFTJ_HIDE_CUFFT:-0}" = 1 ]; then
    # NUFFTJ_HIDE_CUFFT=1: the run as on a machine with the NVIDIA driver but no CUDA toolkit's cuFFT (issue 14): the
    # libcufft files are renamed for the run and restored on exit; FFT engine auto then picks the own FFT.
    hidden="$(mktemp)"
    for f in /usr/local/cuda*/lib64/libcufft.so* /usr/local/cuda*/targets/*/lib/libcufft.so* \
             /usr/lib/x86_64-linux-gnu/libcufft.so*; do
      [ -e "$f" ] && [[ "$f" != *.hidden ]] && mv "$f" "$f.hidden" && echo "$f" >> "$hidden"
    done
    trap 'while read -r f; do mv "$f.hidden" "$f"; done < "$hidden"; rm -f "$hidden"' EXIT
    echo "cuFFT hidden: $(tr '\n' ' ' < "$hidden")"
  fi
  echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC') on $(hostname): $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || echo 'no nvidia-smi')"
  if [ "${1:-}" = cli ]; then
    # run OUT.txt cli <nufft-j arguments>: a command of the nufft-j command line (e.g. bench --device gpu --tune quick),
    # its output copied to OUT.txt. The tuning wisdom goes to $NUFFTJ_WISDOM (default: a fresh file under /tmp).
    shift
    NUFFTJ_WISDOM="${NUFFTJ_WISDOM:-$(mktemp -d)/wisdom.json}" "$jre/jre/bin/java" $vec -Xmx48g -Djava.awt.headless=true \
      -cp "$cp_" org.nufftj.cli.Main "$@" | tee "$report"
  elif [ "${1:-}" = jmh ]; then
    # run OUT.txt jmh <JMH arguments>: a JMH benchmark of the test classes (e.g. PlaneWaveBenchmark -p device=cpu,gpu),
    # forked JVMs on the same runtime; its output copied to OUT.txt.
    shift
    "$jre/jre/bin/java" $vec -Djava.awt.headless=true -cp "$cp_" org.openjdk.jmh.Main -jvm "$jre/jre/bin/java" -jvmArgsPrepend "$vec" "$@" | tee "$report"
  elif [ "${1:-}" = recon ]; then
    shift
    # -Xmx4g as scripts/recon-bench.sh uses on the build machine, so the heap figures compare; default GC (G1), as Fiji.
    "$jre/jre/bin/java" $vec -Xmx4g -Djava.awt.headless=true -cp "$cp_" org.nufftj.command.ReconMacroBenchmark "$report" \
      samples="$samples" "$@"
  else
    # NUFFTJ_BASELINE: an earlier report (e.g. the committed docs/gpu-report.md) to compare each benchmark row with.
    # The JVM runs as a child that a TERM or INT to this script (e.g. from `timeout`) is passed on to: without that, a
    # run cut by a time limit left its JVM running on the GPU beside whatever the caller ran next (2026-11-29).
    # NUFFTJ_SUITE_OPTS: more JVM options for the suite (e.g. -Dnufftj.spread3d=atomic for an A/B of a spreader).
    # shellcheck disable=SC2086
    "$jre/jre/bin/java" $vec -Xmx48g -XX:+UseParallelGC ${NUFFTJ_SUITE_OPTS:-} -Dnufftj.samples="$samples" \
      -Dnufftj.baseline="${NUFFTJ_BASELINE:-}" -Dnufftj.ref="${NUFFTJ_REF:-}" -cp "$cp_" \
      org.nufftj.nufft.gpu.GpuSuite "$report" "$@" &
    jvm=$!
    trap 'kill -TERM "$jvm" 2>/dev/null' TERM INT
    rc=0
    wait "$jvm" || rc=$?
    # a signal interrupts the first wait; the second waits for the JVM to end and takes its status
    if kill -0 "$jvm" 2>/dev/null; then rc=0; wait "$jvm" || rc=$?; fi
    exit "$rc"
  fi
  ;;
*)
  echo "usage: $0 pack DIR | run REPORT.md [tests|bench|all|exact|fft|transfer|fk|matrix|stream|setpts|matched|coils|tuned] [rows|all] [cpu|nocpu] [methods] | run REPORT.md recon [key=value ...] | run OUT.txt cli ARGS... | run OUT.txt jmh ARGS..." >&2; exit 2;;
esac
