#!/usr/bin/env bash
# Times `./nufft-j adjoint|forward` against `bart nufft -a|bart nufft` as whole processes (JVM start-up included),
# side by side, on the issue's workload: radial 402 spokes x 512 samples (2x readout oversampling) onto 256^2,
# 8 and 32 coils (32 = four copies of BART's 8-coil phantom joined along the coil dimension), float.
# Uses hyperfine when installed, else a bash loop (runs alternate between the two tools; median reported).
# Usage: scripts/bench-vs-bart.sh [runs (default 7)] [tolerances (default "1e-3 1e-4")]
# The last row times `nufft-j forward --help` beside the 8-coil `bart nufft` forward: the start-up floor of a one-shot run.
# NUFFTJ_BEFORE=/path/to/nufft-j (another checkout's launcher, e.g. a worktree of an earlier commit) adds that build
# as a third tool in the same alternation (bash loop only), and its time and this build's over it per row.
# Then (unless NUFFTJ_BENCH_DAEMON=0) the same rows with NUFFTJ_DAEMON=1: `nufft-j daemon start` once (its time
# printed: the JVM's start and the warm-up), then each row's client process against bart's whole process, and
# `nufft-j daemon stop` at the end.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
runs="${1:-7}"
tolerances="${2:-1e-3 1e-4}"
command -v bart >/dev/null || { echo "bench-vs-bart: bart is not on the PATH" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
"$root/nufft-j" info >/dev/null # builds on first use, outside the timings
before="${NUFFTJ_BEFORE:-}"
[[ -n "$before" ]] && { "$before" info >/dev/null || { echo "bench-vs-bart: $before failed" >&2; exit 1; }; }

bart traj -r -x 256 -o 2 -y 402 traj >/dev/null
bart phantom -k -s 8 -t traj k8 >/dev/null
bart join 3 k8 k8 k8 k8 k32 >/dev/null
bart nufft -a -d 256:256:1 traj k8 img8 >/dev/null 2>&1
bart nufft -a -d 256:256:1 traj k32 img32 >/dev/null 2>&1

now() { date +%s%N; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# time_pair NAME CMD_A CMD_B: alternates A and B, prints median seconds of each and the ratio B/A.
time_pair() {
	local name="$1" a="$2" b="$3" c="${4:-}" ta=() tb=() tc=() t0
	eval "$a" >/dev/null 2>&1; eval "$b" >/dev/null 2>&1 # warm the page cache
	[[ -n "$c" ]] && { eval "$c" >/dev/null 2>&1 || true; }
	if [[ -z "$c" ]] && command -v hyperfine >/dev/null; then
		hyperfine -N -w 1 -r "$runs" --export-json h.json "$a" "$b" >/dev/null 2>&1
		read -r ma mb < <(python3 -c "import json;r=json.load(open('h.json'))['results'];print(r[0]['median'],r[1]['median'])")
	else
		for ((i = 0; i < runs; i++)); do
			if [[ -n "$c" ]]; then t0=$(now); eval "$c" >/dev/null 2>&1; tc+=($(( $(now) - t0 ))); fi
			t0=$(now); eval "$a" >/dev/null 2>&1; ta+=($(( $(now) - t0 )))
			t0=$(now); eval "$b" >/dev/null 2>&1; tb+=($(( $(now) - t0 )))
		done
		ma=$(printf '%s\n' "${ta[@]}" | median | awk '{printf "%.3f", $1/1e9}')
		mb=$(printf '%s\n' "${tb[@]}" | median | awk '{printf "%.3f", $1/1e9}')
	fi
	printf '%-28s nufft-j %7.3f s   bart %7.3f s   bart/nufft-j %5.2fx' "$name" "$ma" "$mb" \
		"$(awk -v a="$ma" -v b="$mb" 'BEGIN{print b/a}')"
	if [[ -n "$c" ]]; then
		mc=$(printf '%s\n' "${tc[@]}" | median | awk '{printf "%.3f", $1/1e9}')
		printf '   before %7.3f s   nufft-j/before %5.2f' "$mc" "$(awk -v a="$ma" -v c="$mc" 'BEGIN{print a/c}')"
	fi
	printf '\n'
}

jv="java"; [[ -n "${JAVA_HOME:-}" && -x "$JAVA_HOME/bin/java" ]] && jv="$JAVA_HOME/bin/java"
echo "machine: $(nproc) cores; nufft-j on $("$jv" -version 2>&1 | head -1); $(bart version); runs: $runs (median)"
echo "bart has no tolerance option (its fixed gridding: ~1.3e-3 error); nufft-j runs at each tolerance below."
# rows LABEL COILS TOOL [BEFORE]: per tolerance and coil count, TOOL's adjoint and forward (TOOL: the command that
# starts nufft-j) against bart's, each row named LABEL + direction + coil count + COILS; BEFORE as NUFFTJ_BEFORE.
rows() {
	local label="$1" coils="$2" tool="$3" prev="${4:-}" eps c
	for eps in $tolerances; do
		for c in 8 32; do
			time_pair "${label}adjoint ${c}${coils} eps=$eps" \
				"$tool adjoint -d 256:256:1 -e $eps traj k$c out_nj" \
				"bart nufft -a -d 256:256:1 traj k$c out_bart" \
				"${prev:+$prev adjoint -d 256:256:1 -e $eps traj k$c out_before}"
			time_pair "${label}forward ${c}${coils} eps=$eps" \
				"$tool forward -e $eps traj img$c outf_nj" \
				"bart nufft traj img$c outf_bart" \
				"${prev:+$prev forward -e $eps traj img$c outf_before}"
		done
	done
}
rows "" " coils" "$root/nufft-j" "$before"
# The floor of a one-shot command on this machine: the same launcher with the same JVM options, parsing the forward
# command's options and printing its help (JVM start-up, class-data sharing, picocli), no file read, no transform.
time_pair "floor: forward --help" "$root/nufft-j forward --help" "bart nufft traj img8 outf_bart"
if [[ "${NUFFTJ_BENCH_DAEMON:-1}" != 0 ]]; then
	"$root/nufft-j" daemon stop >/dev/null 2>&1 || true
	sleep 2.5 # a running daemon ends within its poll
	t0=$(now)
	"$root/nufft-j" daemon start
	echo "daemon start (once: the JVM and its warm-up): $(awk -v t=$(( $(now) - t0 )) 'BEGIN{printf "%.1f", t/1e9}') s"
	rows "daemon: " "" "env NUFFTJ_DAEMON=1 $root/nufft-j"
	"$root/nufft-j" daemon stop
fi
