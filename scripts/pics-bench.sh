#!/usr/bin/env bash
# nufft-j pics against bart pics, side by side in one run, on the workload of issue 8 (docs/benchmarks.md):
# 8-coil golden-angle radial, 96 spokes x 512 samples (2x readout oversampling) -> 256^2, BART's phantom and maps
# (`bart traj -r -G -x 512 -y 96` scaled by 0.5; `bart phantom -S 8 -x 256`; `bart phantom -s 8 -k -t`), scaled NRMSE
# (`bart nrmse -s`) against `bart phantom -x 256`. Wall time of the whole process (GNU time).
# Usage: scripts/pics-bench.sh [workdir]   (rows: l2, TV, l1-wavelet; extra args for nufft-j via NUFFTJ_ARGS)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="${1:-$(mktemp -d)}"
mkdir -p "$work"
cd "$work"
if [ ! -f ksp.cfl ]; then
  bart traj -r -G -x 512 -y 96 t0 >/dev/null
  bart scale 0.5 t0 traj >/dev/null
  bart phantom -S 8 -x 256 maps >/dev/null
  bart phantom -s 8 -k -t traj ksp >/dev/null
  bart phantom -x 256 truth >/dev/null
fi
"$root/nufft-j" --version >/dev/null 2>&1 || true # build once, outside the timings
rows=("-l2 -r 0.001 -i 30" "-R T:3:0:0.002 -i 60" "-l1 -r 0.002 -e -i 30")
echo "| run | arguments | wall | scaled NRMSE |"
echo "|---|---|---|---|"
for args in "${rows[@]}"; do
  for tool in bart nufft-j; do
    if [ "$tool" = bart ]; then cmd=(bart pics -S $args -t traj ksp maps out_bart)
    else cmd=("$root/nufft-j" pics -S $args ${NUFFTJ_ARGS:-} -t traj ksp maps out_nufftj); fi
    start=$(date +%s.%N)
    "${cmd[@]}" >/dev/null 2>"log_$tool"
    end=$(date +%s.%N)
    out=$([ "$tool" = bart ] && echo out_bart || echo out_nufftj)
    nrmse=$(bart nrmse -s truth "$out" | tail -1)
    printf "| %s | \`%s\` | %.1f s | %s |\n" "$tool" "$args" "$(echo "$end - $start" | bc)" "$nrmse"
  done
done
