#!/usr/bin/env bash
# Side-by-side GPU benchmarks of an earlier commit and the current tree, in one device call (same machine, same
# minutes): the figures of docs/benchmarks.md "Before and after the backend refactor" and of the closing notes.
#
#   scripts/gpu-ab.sh pack COMMIT [PACK]   (build machine) builds COMMIT's classes and test classes in a temporary
#                                          worktree and stores them as PACK/../base.tar.xz (PACK, default .gpu/pack, is
#                                          the current tree's GPU pack: scripts/gpu-suite.sh pack, NUFFTJ_PACK_SAMPLES=0).
#   scripts/gpu-ab.sh run OUT [PACK] [bench|recon|both]
#                                          (GPU machine, in the checkout) runs COMMIT's GpuSuite benchmarks (float, no
#                                          CPU columns) then the current ones with the first as baseline (ratio table
#                                          "Against the previous report" in OUT/bench-new.md), and/or the
#                                          run("Reconstruct k-space") benchmark of each (OUT/recon-base.md, recon-new.md).
set -euo pipefail
cmd="${1:-}"; shift || true
root="$(cd "$(dirname "$0")/.." && pwd)"
case "$cmd" in
pack)
  commit="${1:?pack COMMIT}"; pack="$(realpath -m "${2:-$root/.gpu/pack}")"
  wt="$(mktemp -d)"
  git -C "$root" worktree add -q --detach "$wt" "$commit"
  (cd "$wt" && mvn -B -q -o test-compile)
  mkdir -p "$wt/base" && cp -r "$wt/target/classes" "$wt/target/test-classes" "$wt/base/"
  echo "$commit $(git -C "$root" rev-parse "$commit")" > "$wt/base/COMMIT"
  tar -C "$wt" -cJf "$(dirname "$pack")/base.tar.xz" base
  git -C "$root" worktree remove --force "$wt"
  du -sh "$(dirname "$pack")/base.tar.xz"
  ;;
run)
  out="${1:?run OUT}"; pack="$(realpath -m "${2:-$root/.gpu/pack}")"; what="${3:-both}"
  base=/tmp/nufftj-base
  rm -rf "$base" && mkdir -p "$base"
  tar -C "$base" -xJf "$(dirname "$pack")/base.tar.xz"
  mv "$base"/base/* "$base"/ && rmdir "$base/base"
  ln -s "$pack/lib" "$base/lib"
  cp "$pack/jre.tar.gz" "$pack/jre.modules" "$pack/gpu-suite.sh" "$base/"
  export NUFFTJ_CHECKOUT="$root"
  mkdir -p "$out"
  if [ "$what" != recon ]; then
    "$base/gpu-suite.sh" run "$out/bench-base.md" bench all nocpu
    NUFFTJ_BASELINE="$out/bench-base.md" "$pack/gpu-suite.sh" run "$out/bench-new.md" bench all nocpu
    grep "rows compared" "$out/bench-new.md"
  fi
  if [ "$what" != bench ]; then
    "$base/gpu-suite.sh" run "$out/recon-base.md" recon
    "$pack/gpu-suite.sh" run "$out/recon-new.md" recon
  fi
  ;;
*)
  echo "usage: $0 pack COMMIT [PACK] | run OUT [PACK] [bench|recon|both]" >&2; exit 2;;
esac
