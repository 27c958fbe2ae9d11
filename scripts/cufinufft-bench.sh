#!/usr/bin/env bash
# cuFINUFFT measured side by side with NUFFT-J on the GPU machine (issue 9: "build cuFINUFFT from its public source
# there for the comparison, keep no copy of it in the repository").
#
#   scripts/cufinufft-bench.sh pack DIR [FINUFFT_CHECKOUT]   (build machine) DIR/finufft-src.tar.xz: the source tree of
#                         a FINUFFT git checkout (default /work/ext/finufft, commit 9810998d as ../shared/GPU.md
#                         measured) with its POET and xsimd headers (FINUFFT_DEPS, FINUFFT_XSIMD, defaults under
#                         /work/ext/finufft-deps), and
#                         this script. Nothing of it enters the repository (DIR is an ignored build folder).
#   DIR/cufinufft-bench.sh run OUT.csv [ROWS]               (GPU machine) builds libcufinufft.a for the GPU's compute
#                         capability with make (nvcc and cuFFT of the machine's CUDA toolkit; once per machine, under
#                         /tmp/cufinufft-build), compiles scripts/cufinufft/refbench.cu against it (from
#                         NUFFTJ_CHECKOUT, default the current directory) and runs it on the rows of GpuBenchmark.rows()
#                         (ROWS: indices, comma separated, default all). OUT.csv: one line per row and direction with
#                         cuFINUFFT's fastest method; the raw output next to it (OUT.csv.log). GpuSuite's bench reads
#                         OUT.csv through NUFFTJ_REF (-Dnufftj.ref) and then compares with these figures instead of
#                         the reference figures of ../shared/GPU.md.
set -euo pipefail
cmd="${1:-}"; shift || true
# The rows of GpuBenchmark.rows(), in its order: traj dim n count transforms eps.
ROWS=(
  "random 2 256 262144 1 1e-3"
  "random 2 512 1048576 1 1e-3"
  "random 2 512 1048576 8 1e-3"
  "random 2 512 1048576 1 1e-6"
  "random 2 1024 4194304 1 1e-6"
  "random 3 128 2097152 1 1e-3"
  "random 3 128 2097152 1 1e-6"
  "random 3 256 16777216 1 1e-3"
  "radial 2 256 512 1 1e-3"
  "radial 2 256 512 1 1e-6"
  "radial 2 512 1024 1 1e-3"
  "radial 2 512 1024 1 1e-6"
  "radial 2 512 1024 8 1e-3"
  "radial 2 512 1024 8 1e-6"
  "kooshball 3 128 8192 1 1e-3"
  "kooshball 3 128 8192 1 1e-6"
  "radial 2 512 1024 1 1e-5"
  "kooshball 3 128 8192 1 1e-5"
)
# setPoints lines (GpuBenchmark.setptsLines): random points at 1M and 16M, 2D and 3D, ε = 1e-3.
SETPTS=(
  "random 2 512 1048576 1 1e-3"
  "random 2 1024 16777216 1 1e-3"
  "random 3 128 1048576 1 1e-3"
  "random 3 256 16777216 1 1e-3"
)
case "$cmd" in
pack)
  out="$(realpath -m "${1:?pack DIR}")"; src="${2:-/work/ext/finufft}"
  deps="${FINUFFT_DEPS:-/work/ext/finufft-deps/poet}"
  mkdir -p "$out"
  tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
  mkdir -p "$tmp/finufft/deps"
  git -C "$src" archive --format=tar HEAD | tar -x -C "$tmp/finufft"
  git -C "$src" rev-parse HEAD > "$tmp/finufft/COMMIT"
  cp -r "$deps" "$tmp/finufft/deps/poet"
  # xsimd's headers: the makefile's header dependencies name them (no network on the GPU machine to fetch them).
  mkdir -p "$tmp/finufft/deps/xsimd" && cp -r "${FINUFFT_XSIMD:-/work/ext/finufft-deps/xsimd}/include" "$tmp/finufft/deps/xsimd/"
  # Only what the GPU library needs travels (the upload is limited): sources, headers, makefile.
  rm -rf "$tmp/finufft"/{docs,matlab,python,fortran,tutorial,examples,test,perftest,devel,tools,deps/poet/{docs,benchmarks,examples}}
  tar -C "$tmp" -cJf "$out/finufft-src.tar.xz" finufft
  cp "$0" "$out/cufinufft-bench.sh"
  du -sh "$out/finufft-src.tar.xz"
  ;;
run)
  here="$(cd "$(dirname "$0")" && pwd)"
  out="$(realpath -m "${1:?run OUT.csv}")"; sel="${2:-all}"
  checkout="${NUFFTJ_CHECKOUT:-$PWD}"
  build=/tmp/cufinufft-build
  cap="$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -1 | tr -d '.')"
  log="$out.log"; : > "$log"
  echo "== $(date -u '+%Y-%m-%d %H:%M:%S UTC') $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1), nvcc $(nvcc --version | tail -1)" | tee -a "$log"
  if ! cmp -s "$here/finufft-src.tar.xz" "$build/src.tar.xz"; then
    rm -rf "$build" && mkdir -p "$build" && cp "$here/finufft-src.tar.xz" "$build/src.tar.xz"
    tar -C "$build" -xJf "$build/src.tar.xz"
  fi
  if [ ! -f "$build/finufft/lib-static/libcufinufft.a" ]; then
    t0=$(date +%s)
    # The two host-only sources go through nvcc as CUDA (-x cu), not the makefile's -x c++: with CUDA 13's CCCL headers
    # the host compiler alone lacks the __cvta_* intrinsics they use.
    (cd "$build/finufft" && make -j"$(nproc)" lib-static/libcufinufft.a NVARCH="-arch=sm_$cap" OMP=OFF LTO=OFF \
      CUXXFLAGS="-x cu -O3 -std=c++17 -arch=sm_$cap -Iinclude -Icontrib -Ideps/poet/include -Isrc/cuda -ccbin=g++ --extended-lambda -Xcompiler -fPIC,-fvisibility=hidden" \
      > "$build/make.log" 2>&1) || { grep -B2 -A3 'error' "$build/make.log" | head -40 | tee -a "$log"; exit 1; }
    echo "built libcufinufft.a (commit $(cat "$build/finufft/COMMIT"), sm_$cap) in $(( $(date +%s) - t0 )) s" | tee -a "$log"
  fi
  nvcc -O3 -std=c++17 -arch="sm_$cap" -Xcompiler -fopenmp -I"$build/finufft/include" \
    "$checkout/scripts/cufinufft/refbench.cu" "$build/finufft/lib-static/libcufinufft.a" -lcufft -lcudart -lgomp \
    -o "$build/refbench"
  echo "commit=$(cat "$build/finufft/COMMIT")" | tee -a "$log"
  echo "kind,row,traj,dim,n,count,transforms,eps,type,method,sort,setpts_ms,exec_ms,exec_min_ms,e2e_pinned_ms,err" > "$out.tmp"
  runrow() { # kind index traj dim n count transforms eps
    local kind="$1" i="$2"; shift 2
    local raw; raw="$(mktemp)"
    "$build/refbench" "$@" 2>&1 | tee -a "$log" > "$raw"
    # rows: the fastest execute per direction (BEST lines); setpts lines: the fastest setpts per direction among the
    # methods that sort the points into bins (sort=1: GM-sort, SM, OD, BG; plain GM only computes bin indices).
    awk -v kind="$kind" -v i="$i" -v spec="$(echo "$@" | tr ' ' ',')" '
      function f(k,   a, n, j, kv) { n = split($0, a, " "); for (j = 2; j <= n; j++) { split(a[j], kv, "="); v[kv[1]] = kv[2] } }
      kind == "row" && $1 == "BEST" { f(); print kind "," i "," spec "," v["type"] "," v["method"] "," v["sort"] "," v["setpts_ms"] "," v["exec_ms"] "," v["exec_min_ms"] "," v["e2e_pinned_ms"] "," v["err"] }
      kind == "setpts" && $1 == "CAND" && $0 ~ /setpts_ms=/ && $0 ~ / sort=1 / { f(); t = v["type"]; if (!(t in best) || v["setpts_ms"] + 0 < best[t] + 0) { best[t] = v["setpts_ms"]; line[t] = kind "," i "," spec "," t "," v["method"] "," v["sort"] "," v["setpts_ms"] "," v["exec_ms"] "," v["exec_min_ms"] "," v["e2e_pinned_ms"] "," v["err"] } }
      END { for (t in line) print line[t] }' "$raw" >> "$out.tmp"
    rm -f "$raw"
  }
  for i in "${!ROWS[@]}"; do
    if [ "$sel" = all ] || [[ ",$sel," == *",$i,"* ]]; then runrow row "$i" ${ROWS[$i]}; fi
  done
  if [ "$sel" = all ] || [[ ",$sel," == *",setpts,"* ]]; then
    for i in "${!SETPTS[@]}"; do runrow setpts "$i" ${SETPTS[$i]}; done
  fi
  mv "$out.tmp" "$out"
  cat "$out"
  ;;
*)
  echo "usage: $0 pack DIR [FINUFFT_CHECKOUT] | run OUT.csv [ROWS]" >&2; exit 2;;
esac
