#!/usr/bin/env bash
# Compiles kernels/*.cu (one module per stage) into the committed resources
# src/main/resources/org/nufftj/gpu/<stage>.fatbin: SASS for sm_75, sm_80 (also runs on sm_86/sm_89, same major) and
# sm_90, plus compute_90 PTX (newer GPUs JIT it), and writes kernels.sha256, the SHA-256 of every file under kernels/ the modules were built
# from. GpuKernelsFreshnessTest fails when those hashes no longer match kernels/ (stale committed modules).
# Needs nvcc (CUDA 12/13) on the PATH; no GPU. With module names as arguments (e.g. `interp`) only those are rebuilt
# (the others must already match kernels/: the hashes are written for every file).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/src/main/resources/org/nufftj/gpu"
mkdir -p "$out"
archs=(-gencode arch=compute_75,code=sm_75 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_90,code=sm_90
       -gencode arch=compute_90,code=compute_90)
pids=()
for src in "$root"/kernels/*.cu; do
  name="$(basename "$src" .cu)"
  if [ $# -gt 0 ] && [[ " $* " != *" $name "* ]]; then continue; fi
  nvcc -fatbin -O3 -std=c++17 -Xfatbin -compress-all "${archs[@]}" -I "$root/kernels" -o "$out/$name.fatbin" "$src" &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
( cd "$root/kernels" && sha256sum $(ls | sort) ) > "$out/kernels.sha256"
echo "# nvcc: $(nvcc --version | tail -1)" >> "$out/kernels.sha256"
ls -la "$out"
