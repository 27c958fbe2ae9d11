#!/usr/bin/env bash
# Runs CPU JMH benchmarks on an earlier commit's classes ("before", default: main) and on this tree's ("after") in one
# script run, the same benchmark sources on both: the current tree's CPU *Benchmark.java files are copied into a
# temporary git worktree of the earlier commit, so benchmarks added since then run there too (they must compile
# against its API). Results: target/jmh-ab/{before,after}.{txt,json}, and a side-by-side table on stdout.
# Usage: BEFORE=main scripts/jmh-ab.sh [JMH arguments, e.g. RadialNufftBenchmark -wi 3 -w 1 -i 5 -r 1]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
before="${BEFORE:-main}"
out="$root/target/jmh-ab"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'git -C "$root" worktree remove --force "$tmp/before" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach "$tmp/before" "$before" >/dev/null
for f in src/test/java/org/nufftj/recon/RadialNufftBenchmark.java src/test/java/org/nufftj/recon/PipeMenonDcfBenchmark.java; do
	cp "$f" "$tmp/before/$f"
done
build() { # $1: checkout; prints its test classpath
	(cd "$1" && mvn -B -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt \
		-DincludeScope=test >/dev/null && echo "$1/target/test-classes:$1/target/classes:$(cat target/test-classpath.txt)")
}
cp_before="$(build "$tmp/before")"
cp_after="$(build "$root")"
echo "before: $before ($(git rev-parse --short "$before")), after: $(git rev-parse --short HEAD)$(git diff --quiet HEAD || echo '+changes')"
# Both runs from the repository root (benchmarks read sample-data/ relative to it).
java -cp "$cp_before" org.openjdk.jmh.Main "$@" -rf json -rff "$out/before.json" | tee "$out/before.txt"
java -cp "$cp_after" org.openjdk.jmh.Main "$@" -rf json -rff "$out/after.json" | tee "$out/after.txt"
python3 - "$out/before.json" "$out/after.json" <<'PY'
import json, sys
def load(p):
	r = {}
	for b in json.load(open(p)):
		key = b["benchmark"].rsplit(".", 2)[-2] + "." + b["benchmark"].rsplit(".", 1)[-1] + " " + \
			" ".join(f"{k}={v}" for k, v in sorted(b.get("params", {}).items()))
		m = b["primaryMetric"]
		raw = sorted(v for fork in m["rawData"] for v in fork)
		med = (raw[(len(raw) - 1) // 2] + raw[len(raw) // 2]) / 2
		r[key] = (med, m["scoreError"], m["scoreUnit"])
	return r
b, a = load(sys.argv[1]), load(sys.argv[2])
print("| benchmark | before: median ± JMH error | after: median ± JMH error | after/before (medians) |")
print("|---|---|---|---|")
for k in b:
	if k in a:
		(sb, eb, u), (sa, ea, _) = b[k], a[k]
		print(f"| {k} | {sb:.2f} ± {eb:.2f} {u} | {sa:.2f} ± {ea:.2f} {u} | {sa / sb:.2f} |")
PY
