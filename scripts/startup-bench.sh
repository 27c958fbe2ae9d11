#!/usr/bin/env bash
# Start-up of the nufft-j launcher with its class-data-sharing archive (target/nufft-j.jsa) and without it
# (NUFFTJ_CDS=0: the JDK's own default archive only), alternating, RUNS times each (default 7): wall time of
# `nufft-j --help` and of a small adjoint (the BART sample, 12,928 points × 4 coils → 64²), median and range, of
# the wall time and of the CPU time (user + system: less sensitive to other processes on a loaded machine).
# Usage: RUNS=7 scripts/startup-bench.sh
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
runs="${RUNS:-7}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
./nufft-j --version >/dev/null # builds and makes the archive when needed
[[ -f target/nufft-j.jsa ]] || { echo "no target/nufft-j.jsa: the launcher made no archive" >&2; exit 1; }
# wall and CPU (user + system, all threads and child processes) milliseconds of one launch
ms() { /usr/bin/time -f '%e %U %S' -o "$tmp/t" "$@" >/dev/null 2>&1; awk '{printf "%d %d", $1 * 1000, ($2 + $3) * 1000}' "$tmp/t"; }
for i in $(seq 1 "$runs"); do
	for cds in 1 0; do
		echo "help $cds $(NUFFTJ_CDS=$cds ms ./nufft-j --help)"
		rm -f "$tmp"/img.*
		echo "adjoint $cds $(NUFFTJ_CDS=$cds ms ./nufft-j adjoint sample-data/bart/radial_traj sample-data/bart/radial "$tmp/img")"
	done
done > "$tmp/times"
python3 - "$tmp/times" <<'PY'
import sys, statistics
rows = {}
for line in open(sys.argv[1]):
	what, cds, wall, cpu = line.split()
	rows.setdefault((what, cds, "wall"), []).append(int(wall))
	rows.setdefault((what, cds, "CPU"), []).append(int(cpu))
print("| command | time | with AppCDS archive: median [min, max] | without (NUFFTJ_CDS=0) | with/without |")
print("|---|---|---|---|---|")
for what in ("help", "adjoint"):
	for kind in ("wall", "CPU"):
		a, b = rows[(what, "1", kind)], rows[(what, "0", kind)]
		name = "nufft-j --help" if what == "help" else "nufft-j adjoint (BART sample, 4 coils, 64²)"
		print(f"| {name} | {kind} | {statistics.median(a):.0f} [{min(a)}, {max(a)}] ms (n={len(a)}) | "
			f"{statistics.median(b):.0f} [{min(b)}, {max(b)}] ms (n={len(b)}) | {statistics.median(a) / statistics.median(b):.2f} |")
PY
