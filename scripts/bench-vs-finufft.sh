#!/usr/bin/env bash
# NUFFT-J's CPU engine side by side with FINUFFT (issue 10 item 6), in-process, 2 threads, same points, same data:
# radial 402 spokes x 512 samples (205,824 points) -> 256^2, float, 8 and 32 coils, eps 1e-3 / 1e-4, adjoint and
# forward; 3D golden-means kooshball 8192 spokes x 256 samples (2,097,152 points), 1 coil: adjoint to 128^3 at 1e-3
# (float) and to 64^3 at 1e-6 (double: float cannot reach 1e-6). Times are of execute only (plan and points made once
# per process, as in an iterative recon); error = relative l2 against an exact direct sum in double on 200 random
# output entries, the same entries and inputs for both engines.
#
# What it does, in order:
#  1. builds FINUFFT from its public source into $FINUFFT_BUILD (outside this repository), Release, OpenMP, the
#     system FFTW (Debian: apt-get install libfftw3-dev), unless $FINUFFT_BUILD/src/libfinufft.a exists;
#  2. builds scripts/finufft/bench_finufft.cpp (our driver, FINUFFT's public C API) against it;
#  3. builds our test classes (src/test/java/org/nufftj/recon/FinufftSideBySide.java) and writes the shared inputs
#     and exact references into $BENCH_DATA (keeping data sets already there: seeded, they would be the same);
#  4. waits until the 1-minute load average is below $LOAD_MAX (polls every 30 s, at most $LOAD_WAIT s);
#  5. runs the two engines alternately, row by row, $ROUNDS rounds (which engine goes first alternates per round),
#     and prints a markdown table: medians [min-max] over all timed executes of all rounds.
#
# Sources (git URL, commit). FINUFFT's CMake fetches its dependencies through CPM; here they are given as local
# folders (CPM_<name>_SOURCE), so no network is needed once they are on disk. When a *_SRC folder is missing the
# script clones it at the commit below (network needed).
#   FINUFFT   https://github.com/flatironinstitute/finufft    9810998d273b504de6d61896047cc691738cd94c (2.6.0-dev)
#   xsimd     https://github.com/xtensor-stack/xsimd          e88a72831858123924f7118f345dfe5d70d95991 (tag 14.3.0,
#             the XSIMD_VERSION of FINUFFT's CMakeLists.txt)
#   POET      https://github.com/flatironinstitute/poet       dfb3e800a1e52c68333170cf1126335eef818535 (tag v0.0.1)
#   findFFTW  https://github.com/egpbos/findFFTW              ac788529392825067c9118f9f099aaa1efb77589 (master)
#   CPM.cmake https://github.com/cpm-cmake/CPM.cmake          49acea0d775087ace0522ee4cc5de45e3da094a8 (tag v0.42.3;
#             FINUFFT asks for 0.43.1, whose file is only placed at the path FINUFFT looks in: with every package
#             given as a local source CPM downloads nothing, and the two versions add packages alike; CMake then
#             warns "unstable development version of CPM.cmake", harmless: the repository's file carries no number)
#
# Environment (defaults in brackets; $WORK = [the repository's parent]/finufft-bench, outside the repository):
#   FINUFFT_SRC [$WORK/src/finufft]  XSIMD_SRC [$WORK/src/xsimd]  POET_SRC [$WORK/src/poet]
#   FINDFFTW_SRC [$WORK/src/findFFTW]  CPM_SRC [$WORK/src/CPM.cmake]
#   FINUFFT_BUILD [$WORK/build]  BENCH_DATA [$WORK/data]  ROUNDS [3]  LOAD_MAX [1.5]  LOAD_WAIT [900]
#   ROWS [all; a regular expression on the row id, e.g. '^2d-']
#   JAVA_OPTS [-Xmx4g --add-modules jdk.incubator.vector: the CPU engine's Vector API loops; add
#              -Dnufftj.vector=false for its scalar loops]
#   WARMUP_S [4]: untimed executes before the timed ones, per process and engine: at least the row's count (rows.tsv)
#             and at least this many seconds (NUFFT-J's JIT: its 2D 8-coil adjoint runs ~2.4x slower for ~2 s)
# Usage: scripts/bench-vs-finufft.sh        (results also in $WORK/results-<UTC time>.log)
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
WORK="${WORK:-$(dirname "$root")/finufft-bench}"
FINUFFT_SRC="${FINUFFT_SRC:-$WORK/src/finufft}"
XSIMD_SRC="${XSIMD_SRC:-$WORK/src/xsimd}"
POET_SRC="${POET_SRC:-$WORK/src/poet}"
FINDFFTW_SRC="${FINDFFTW_SRC:-$WORK/src/findFFTW}"
CPM_SRC="${CPM_SRC:-$WORK/src/CPM.cmake}"
FINUFFT_BUILD="${FINUFFT_BUILD:-$WORK/build}"
BENCH_DATA="${BENCH_DATA:-$WORK/data}"
ROUNDS="${ROUNDS:-3}"
LOAD_MAX="${LOAD_MAX:-1.5}"
LOAD_WAIT="${LOAD_WAIT:-900}"
ROWS="${ROWS:-.}"
JAVA_OPTS="${JAVA_OPTS:--Xmx4g --add-modules jdk.incubator.vector}"
WARMUP_S="${WARMUP_S:-4}"

for d in "$FINUFFT_BUILD" "$BENCH_DATA"; do
	mkdir -p "$d"
	case "$(cd "$d" && pwd -P)/" in "$(cd "$root" && pwd -P)"/*)
		echo "bench-vs-finufft: $d is inside the repository; FINUFFT and the data are built outside it" >&2; exit 1;;
	esac
done

# fetch DIR URL COMMIT: a checkout of COMMIT in DIR, cloned when DIR is missing.
fetch() {
	[ -e "$1" ] && return 0
	echo "cloning $2 at $3 into $1"
	git clone --quiet "$2" "$1" && git -C "$1" checkout --quiet "$3"
}
fetch "$FINUFFT_SRC" https://github.com/flatironinstitute/finufft.git 9810998d273b504de6d61896047cc691738cd94c
fetch "$XSIMD_SRC" https://github.com/xtensor-stack/xsimd.git e88a72831858123924f7118f345dfe5d70d95991
fetch "$POET_SRC" https://github.com/flatironinstitute/poet.git dfb3e800a1e52c68333170cf1126335eef818535
fetch "$FINDFFTW_SRC" https://github.com/egpbos/findFFTW.git ac788529392825067c9118f9f099aaa1efb77589
fetch "$CPM_SRC" https://github.com/cpm-cmake/CPM.cmake.git 49acea0d775087ace0522ee4cc5de45e3da094a8

# 1. FINUFFT
lib="$FINUFFT_BUILD/src/libfinufft.a"
if [ ! -f "$lib" ]; then
	cpm_version=$(sed -n 's/.*set(CPM_DOWNLOAD_VERSION "\([^"]*\)".*/\1/p' "$FINUFFT_SRC/CMakeLists.txt")
	mkdir -p "$FINUFFT_BUILD/cmake"
	cp "$CPM_SRC/cmake/CPM.cmake" "$FINUFFT_BUILD/cmake/CPM_${cpm_version}.cmake"
	cmake -S "$FINUFFT_SRC" -B "$FINUFFT_BUILD" -DCMAKE_BUILD_TYPE=Release -DFINUFFT_USE_OPENMP=ON \
		-DFINUFFT_BUILD_TESTS=OFF -DCPM_xsimd_SOURCE="$XSIMD_SRC" -DCPM_POET_SOURCE="$POET_SRC" \
		-DCPM_findfftw_SOURCE="$FINDFFTW_SRC"
	cmake --build "$FINUFFT_BUILD" -j "$(nproc)"
fi

# 2. our driver
driver="$FINUFFT_BUILD/bench_finufft"
if [ ! -x "$driver" ] || [ "$root/scripts/finufft/bench_finufft.cpp" -nt "$driver" ]; then
	g++ -O2 -std=c++17 -I"$FINUFFT_SRC/include" "$root/scripts/finufft/bench_finufft.cpp" "$lib" \
		"$FINUFFT_BUILD/src/common/libfinufft_common.a" -lfftw3f_omp -lfftw3_omp -lfftw3f -lfftw3 -fopenmp -lm \
		-o "$driver"
fi

# 3. our classes and the shared inputs
cd "$root"
mvn -B -q -o test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt -DincludeScope=test \
	>/dev/null 2>&1 || mvn -B -q test-compile dependency:build-classpath -Dmdep.outputFile=target/test-classpath.txt \
	-DincludeScope=test
cp="$root/target/test-classes:$root/target/classes:$(cat target/test-classpath.txt)"
nufftj() { java $JAVA_OPTS -cp "$cp" org.nufftj.recon.FinufftSideBySide "$@"; }
nufftj prepare "$BENCH_DATA" # rows.tsv and points always; data and references when missing

# 4. a quiet machine
waited=0
while awk -v max="$LOAD_MAX" '{exit !($1 >= max)}' /proc/loadavg && [ "$waited" -lt "$LOAD_WAIT" ]; do
	echo "load average $(cut -d' ' -f1-3 /proc/loadavg) >= $LOAD_MAX; waiting ($waited s so far)" >&2
	sleep 30
	waited=$((waited + 30))
done

# 5. the rounds
log="$WORK/results-$(date -u +%Y%m%dT%H%M%SZ).log"
{
	echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "load at start: $(uptime)"
	echo "cpu: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores online"
	echo "jdk: $(java -version 2>&1 | head -1); JAVA_OPTS: $JAVA_OPTS"
	echo "finufft: $(git -C "$FINUFFT_SRC" rev-parse HEAD 2>/dev/null || echo "unknown commit") ($FINUFFT_SRC)," \
		"$(g++ --version | head -1), FFTW $(dpkg-query -W -f '${Version}' libfftw3-dev 2>/dev/null || echo '?')"
	echo "nufft-j: $(git -C "$root" rev-parse --short HEAD)$(git -C "$root" diff --quiet HEAD -- src ||
		echo ' + local changes')"
	echo "rounds: $ROUNDS; warm-up per process: the row's count and >= $WARMUP_S s;" \
		"OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-unset}"
} | tee "$log"
cd "$BENCH_DATA"
for ((round = 1; round <= ROUNDS; round++)); do
	while IFS=$'\t' read -r id kind dim n coils eps prec points data ref warmups repeats; do
		[[ "$id" =~ $ROWS ]] || continue
		args=("$kind" "$dim" "$n" "$coils" "$eps" "$prec" "$points" "$data" "$ref" "$warmups" "$repeats" "$WARMUP_S")
		engines=(finufft nufftj)
		((round % 2)) || engines=(nufftj finufft)
		for engine in "${engines[@]}"; do
			if [ "$engine" = finufft ]; then out=$("$driver" "${args[@]}" </dev/null 2>&1)
			else out=$(nufftj time "${args[@]}" </dev/null 2>&1); fi
			echo "$out" | sed "s/^/round=$round row=$id /" | tee -a "$log" >&2 # progress on stderr
		done
	done <rows.tsv
done
echo "load at end: $(uptime)" | tee -a "$log"
# FINUFFT's own choices (upsampling factor, kernel width) and its stage times (opts.debug) of one execute after one
# warm-up, per row, after the rounds (not in the table's times).
while IFS=$'\t' read -r id kind dim n coils eps prec points data ref warmups repeats; do
	[[ "$id" =~ $ROWS ]] || continue
	debug=$(BENCH_FINUFFT_DEBUG=1 "$driver" "$kind" "$dim" "$n" "$coils" "$eps" "$prec" "$points" "$data" "$ref" 1 1 0 \
		</dev/null 2>&1)
	{ echo "$debug" | grep -E 'selected best upsampfac|chose ns='; echo "$debug" | grep -E 'tot [a-zA-Z]+:' | tail -3; } |
		sed 's/\[[a-z_]*\]//g; s/done\.//' | tr -s ' \t' ' ' | paste -sd ';' |
		sed "s/^/row=$id PARAMS engine=finufft /" >>"$log"
done <rows.tsv

python3 - "$log" "$BENCH_DATA/rows.tsv" <<'EOF'
import re, statistics, sys
log, rows = sys.argv[1], sys.argv[2]
times, errors, params = {}, {}, {}
for line in open(log):
    m = re.search(r'row=(\S+) RESULT engine=(\S+) times_ms=(\S+) error=(\S+)', line)
    if m:
        key = (m.group(1), m.group(2))
        times.setdefault(key, []).extend(float(t) for t in m.group(3).split(','))
        errors.setdefault(key, []).append(float(m.group(4)))
    m = re.search(r'row=(\S+) PARAMS engine=(\S+) (.*)', line)
    if m:
        params[(m.group(1), m.group(2))] = m.group(3).strip()
def ms(v):
    return '%.0f [%.0f–%.0f]' % (statistics.median(v), min(v), max(v)) if v else 'n/a'
print()
print('| row | FINUFFT ms, median [min–max] | NUFFT-J ms, median [min–max] | NUFFT-J / FINUFFT | error FINUFFT | '
      'error NUFFT-J | target | met |')
print('|---|---|---|---|---|---|---|---|')
for line in open(rows):
    rid, kind, dim, n, coils, eps, prec = line.split('\t')[:7]
    f, j = times.get((rid, 'finufft'), []), times.get((rid, 'nufftj'), [])
    if not f or not j:
        continue
    ratio = statistics.median(j) / statistics.median(f)
    ef, ej = max(errors[(rid, 'finufft')]), max(errors[(rid, 'nufftj')])
    target = 1.5 if dim == '2' else 2.0
    why = [w for w, bad in (('time', ratio > target), ('error', ej > ef)) if bad]
    label = '%s %s %s coil%s, %s, ε=%s, %s' % (
        kind, 'x'.join([n] * int(dim)), coils, '' if coils == '1' else 's', '2D radial' if dim == '2' else 'kooshball',
        eps, prec)
    print('| %s | %s | %s | %.2f | %.2e | %.2e | ≤ %.1f× | %s |' % (
        label, ms(f), ms(j), ratio, ef, ej, target, 'yes' if not why else 'no (' + ', '.join(why) + ')'))
print()
print('n = timed executes pooled over all rounds per cell: ' + ', '.join(
    '%s %d/%d' % (rid, len(times.get((rid, 'finufft'), [])), len(times.get((rid, 'nufftj'), [])))
    for rid in dict.fromkeys(k[0] for k in times)))
print()
for (rid, engine), p in sorted(params.items()):
    print('- %s, %s: %s' % (rid, engine, p))
EOF
echo "log: $log"
