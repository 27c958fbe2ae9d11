#!/usr/bin/env bash
# Checks kernels/setpts.cu without a GPU: compiles it for the host with src/test/cuda-emulation/emu.h (a shim of the
# CUDA features it uses) and runs src/test/cuda-emulation/setpts_emulation.cpp, which compares its output with a C++
# copy of the host oracle GpuPoints. Needs g++ with C++20 (std::barrier). -ffp-contract=off: no fused multiply-adds,
# as __dmul_rn / __dsub_rn guarantee on the device. The GPU test of the same thing is GpuSetPointsTest.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
g++ -std=c++20 -O1 -ffp-contract=off -w -pthread -I "$root/kernels" -I "$root/src/test/cuda-emulation" \
  -o "$out/setpts_emulation" "$root/src/test/cuda-emulation/setpts_emulation.cpp"
"$out/setpts_emulation"
