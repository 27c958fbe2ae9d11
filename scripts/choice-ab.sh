#!/usr/bin/env bash
# The CPU parameter choice against another build's, side by side (issue 10 item 4): per row, alternating, the same
# timing class (src/test/java/org/nufftj/nufft/cpu/ChoiceTiming.java) on this tree's main classes and on BEFORE's.
# Usage: BEFORE=/path/to/worktree/of/an/older/commit [ROUNDS=2] scripts/choice-ab.sh
# (BEFORE must have been built: its target/classes.) Rows: radial 2D 8 coils at 256² (1e-3, 1e-5), 200² (1e-3) and
# 320² (1e-4); kooshball 3D 1 coil at 128³ (1e-4, float) and 64³ (1e-6, double).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
before="${BEFORE:?set BEFORE to a built worktree of the commit to compare with}"
rounds="${ROUNDS:-2}"
cd "$root"
mvn -B -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -DincludeScope=test \
	>/dev/null 2>&1 || mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt \
	-DincludeScope=test >/dev/null
[[ -d "$before/target/classes" ]] || { echo "choice-ab: $before/target/classes is missing (build it first)" >&2; exit 1; }
deps="$(cat target/test-classpath.txt)"
timing="$(mktemp -d)"
trap 'rm -rf "$timing"' EXIT
mkdir -p "$timing/org/nufftj/nufft/cpu"
cp target/test-classes/org/nufftj/nufft/cpu/ChoiceTiming.class "$timing/org/nufftj/nufft/cpu/"
echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC'); $(nproc) cores; $(java -version 2>&1 | head -1)"
echo "after: $(git rev-parse --short HEAD); before: $(git -C "$before" rev-parse --short HEAD) ($before)"
for ((r = 1; r <= rounds; r++)); do
	for row in "2 256 8 1e-3 float" "2 256 8 1e-5 float" "2 200 8 1e-3 float" "2 320 8 1e-4 float" \
		"3 128 1 1e-4 float" "3 64 1 1e-6 double"; do
		for side in before after; do
			classes="$root/target/classes"
			[[ $side == before ]] && classes="$before/target/classes"
			# shellcheck disable=SC2086
			out=$(java -Xmx6g --add-modules jdk.incubator.vector -cp "$timing:$classes:$deps" org.nufftj.nufft.cpu.ChoiceTiming $row 2>&1 | grep -v WARNING)
			echo "round $r $side $out"
		done
	done
done
