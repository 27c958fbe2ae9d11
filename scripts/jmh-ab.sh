#!/usr/bin/env bash
# Runs CPU JMH benchmarks on an earlier commit's classes ("before", default: main) and on this tree's ("after") in one
# script run, the same benchmark sources on both: the current tree's CPU *Benchmark.java files are copied into a
# temporary git worktree of the earlier commit, so benchmarks added since then run there too (they must compile
# against its API). The two sides alternate ROUNDS times (default 3), one JMH run each per round, so that load from other
# processes on a shared machine falls on both alike; the table pools every measured iteration of a side (median).
# Results: target/jmh-ab/{before,after}-<round>.{txt,json}, and a side-by-side table on stdout.
# Usage: BEFORE=main ROUNDS=3 scripts/jmh-ab.sh [JMH arguments, e.g. RadialNufftBenchmark -wi 2 -w 1 -i 3 -r 1]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
before="${BEFORE:-main}"
out="$root/target/jmh-ab"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'git -C "$root" worktree remove --force "$tmp/before" >/dev/null 2>&1 || true; rm -rf "$tmp"' EXIT
git worktree add --detach "$tmp/before" "$before" >/dev/null
for f in src/test/java/org/nufftj/recon/RadialNufftBenchmark.java src/test/java/org/nufftj/recon/PipeMenonDcfBenchmark.java \
	src/test/java/org/nufftj/nufft/cpu/FftBenchmark.java src/test/java/org/nufftj/recon/KooshballNufftBenchmark.java; do
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
rounds="${ROUNDS:-3}"
rm -f "$out"/before-*.json "$out"/after-*.json
for r in $(seq 1 "$rounds"); do
	java -cp "$cp_before" org.openjdk.jmh.Main "$@" -rf json -rff "$out/before-$r.json" > "$out/before-$r.txt"
	java -cp "$cp_after" org.openjdk.jmh.Main "$@" -rf json -rff "$out/after-$r.json" > "$out/after-$r.txt"
	echo "round $r of $rounds done"
done
python3 - "$out" "$rounds" <<'PY' | tee "$out/table.md"
import json, sys
def load(side):
	runs = {}
	for i in range(1, int(sys.argv[2]) + 1):
		for b in json.load(open(f"{sys.argv[1]}/{side}-{i}.json")):
			key = b["benchmark"].rsplit(".", 2)[-2] + "." + b["benchmark"].rsplit(".", 1)[-1] + " " + \
				" ".join(f"{k}={v}" for k, v in sorted(b.get("params", {}).items()))
			m = b["primaryMetric"]
			runs.setdefault(key, ([], m["scoreUnit"]))[0].extend(v for fork in m["rawData"] for v in fork)
	r = {}
	for key, (raw, unit) in runs.items():
		raw.sort()
		n = len(raw)
		med = (raw[(n - 1) // 2] + raw[n // 2]) / 2
		# spread: the interquartile range of the pooled iterations
		r[key] = (med, raw[n // 4], raw[(3 * n) // 4], n, unit)
	return r
b, a = load("before"), load("after")
print("| benchmark | before: median [IQR] | after: median [IQR] | after/before (medians) |")
print("|---|---|---|---|")
for k in b:
	if k in a:
		(mb, lb, hb, nb, u), (ma, la, ha, na, _) = b[k], a[k]
		print(f"| {k} | {mb:.1f} [{lb:.1f}, {hb:.1f}] {u} (n={nb}) | {ma:.1f} [{la:.1f}, {ha:.1f}] {u} (n={na}) | {ma / mb:.2f} |")
PY
