#!/usr/bin/env bash
# nufft-j pics against bart pics, side by side in one run, on the workload of issue 8 (docs/benchmarks.md):
# 8-coil golden-angle radial, 96 spokes x 512 samples (2x readout oversampling) -> 256^2, BART's phantom and maps
# (`bart traj -r -G -x 512 -y 96` scaled by 0.5; `bart phantom -S 8 -x 256`; `bart phantom -s 8 -k -t`), scaled NRMSE
# (`bart nrmse -s`) against `bart phantom -x 256`. Wall time of the whole process (GNU time).
# Usage: scripts/pics-bench.sh [workdir]   (rows: l2, TV, l1-wavelet; extra args for nufft-j via NUFFTJ_ARGS)
# Optional: PICS_ROWS="1" runs only those rows (0 l2, 1 TV, 2 l1-wavelet); NUFFTJ_NORMALS="nufft toeplitz" runs
# nufft-j once per --normal value; NUFFTJ_BEFORE=/path/to/launcher adds a row for another build (e.g. the one
# before a change), run the same way.
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
tools=(bart)
if [ -n "${NUFFTJ_BEFORE:-}" ]; then tools+=(before); fi
if [ -n "${NUFFTJ_NORMALS:-}" ]; then for n in $NUFFTJ_NORMALS; do tools+=("nufft-j:$n"); done; else tools+=(nufft-j); fi
echo "| run | arguments | wall | scaled NRMSE |"
echo "|---|---|---|---|"
for r in ${PICS_ROWS:-0 1 2}; do
  args="${rows[$r]}"
  for tool in "${tools[@]}"; do
    case "$tool" in
      bart) cmd=(bart pics -S $args -t traj ksp maps out_bart); out=out_bart; name=bart ;;
      before) cmd=("$NUFFTJ_BEFORE" pics -S $args ${NUFFTJ_ARGS:-} -t traj ksp maps out_before); out=out_before
        name="nufft-j (before)" ;;
      nufft-j:*) cmd=("$root/nufft-j" pics -S $args --normal "${tool#nufft-j:}" ${NUFFTJ_ARGS:-} -t traj ksp maps \
        out_nufftj); out=out_nufftj; name="nufft-j --normal ${tool#nufft-j:}" ;;
      *) cmd=("$root/nufft-j" pics -S $args ${NUFFTJ_ARGS:-} -t traj ksp maps out_nufftj); out=out_nufftj
        name=nufft-j ;;
    esac
    start=$(date +%s.%N)
    "${cmd[@]}" >/dev/null 2>"log_${tool//[: ]/_}"
    end=$(date +%s.%N)
    nrmse=$(bart nrmse -s truth "$out" | tail -1)
    printf "| %s | \`%s\` | %.1f s | %s |\n" "$name" "$args" "$(echo "$end - $start" | bc)" "$nrmse"
  done
done
