#!/usr/bin/env bash
# nufft-j pics on the GPU machine, on issue 8's workload (the data of scripts/pics-bench.sh: 8-coil golden-angle
# radial, 96 spokes x 512 samples -> 256^2, BART's phantom and maps), whole process wall time per --normal value.
#   scripts/pics-gpu.sh data DIR            (build machine, needs bart) writes traj, ksp, maps into DIR and the truth
#                                          beside it (DIR/../truth) for `bart nrmse -s` on the outputs afterwards.
#   scripts/pics-gpu.sh run DIR OUT PACK    (GPU machine) PACK: a folder with classes/ (kernel fatbins included) and
#                                          lib/ of `scripts/gpu-suite.sh pack`; Java from the pack's runtime, unpacked
#                                          by an earlier `gpu-suite.sh run` at /tmp/nufftj-jre. Writes OUT/pics.txt
#                                          (wall per run), the per-run logs (stage and per-iteration times) and images.
# The upload limit (64 MiB a call) does not take the pack and the data at once: the measurements in docs/benchmarks.md
# ran as two calls on one warm machine, the first carrying the pack (gpu-suite tests; copies classes/ and lib/ to
# /tmp/nufftj-pack), the second carrying DIR and running `run DIR OUT /tmp/nufftj-pack`.
set -euo pipefail
case "${1:-}" in
data)
  dir="${2:?data DIR}"; mkdir -p "$dir"; cd "$dir"
  bart traj -r -G -x 512 -y 96 t0 >/dev/null
  bart scale 0.5 t0 traj >/dev/null
  bart phantom -S 8 -x 256 maps >/dev/null
  bart phantom -s 8 -k -t traj ksp >/dev/null
  bart phantom -x 256 ../truth >/dev/null
  rm -f t0.cfl t0.hdr
  ;;
run)
  dir="$(realpath "${2:?run DIR OUT PACK}")"; out="$(realpath -m "${3:?OUT}")"; pack="$(realpath "${4:?PACK}")"
  mkdir -p "$out"; cd "$dir"
  java=/tmp/nufftj-jre/jre/bin/java
  cp_="$pack/classes:$(ls "$pack"/lib/*.jar | tr '\n' ':')"
  for rep in 1 2; do
    for normal in nufft toeplitz exact; do
      s=$(date +%s.%N)
      "$java" -cp "$cp_" org.nufftj.cli.Main pics -S -l2 -r 0.001 -i 30 --device gpu --normal "$normal" --verbose \
        -t traj ksp maps "$out/out_$normal" > "$out/pics_${normal}_$rep.log" 2>&1 && rc=0 || rc=$?
      e=$(date +%s.%N)
      echo "pics l2 --normal $normal run $rep: wall $(awk "BEGIN{print $e - $s}") s rc $rc" >> "$out/pics.txt"
    done
  done
  for normal in toeplitz exact; do
    s=$(date +%s.%N)
    "$java" -cp "$cp_" org.nufftj.cli.Main pics -S -R T:3:0:0.002 -i 60 --device gpu --normal "$normal" --verbose \
      -t traj ksp maps "$out/tv_$normal" > "$out/tv_$normal.log" 2>&1 && rc=0 || rc=$?
    e=$(date +%s.%N)
    echo "pics TV --normal $normal: wall $(awk "BEGIN{print $e - $s}") s rc $rc" >> "$out/pics.txt"
  done
  ;;
*) echo "usage: $0 data DIR | run DIR OUT PACK" >&2; exit 2;;
esac
