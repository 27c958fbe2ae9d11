#!/usr/bin/env bash
# Builds the cuFFT compatibility shim (src/main/c/cufft_shim.c) into the committed resource
# src/main/resources/org/nufftj/gpu/linux-x86_64/libcufft.so.10. Needs gcc only (no CUDA).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="$root/src/main/resources/org/nufftj/gpu/linux-x86_64"
mkdir -p "$out"
gcc -O2 -fPIC -shared -std=c11 -Wall -Wextra -Werror -o "$out/libcufft.so.10" \
  -Wl,-soname,libcufft.so.10 -Wl,--version-script="$root/src/main/c/cufft_shim.map" \
  -Wl,--no-undefined "$root/src/main/c/cufft_shim.c" -ldl -lpthread
strip --strip-unneeded "$out/libcufft.so.10"
echo "built $out/libcufft.so.10 ($(stat -c %s "$out/libcufft.so.10") bytes)"
