#!/usr/bin/env bash
# Sixth session, call 3: the complete run of docs/gpu-report.md on the final code (Java-array executes through the
# pinned mirrors with 8 copy threads; the bench table's JVM warm-up): cuFINUFFT 9810998d built from its public source
# and timed on the 18 rows, then our 18 rows and the exact, own-FFT, transfer, f-k and streaming sections in the same
# call; the tests section from the whole suite of s6-call2 (the same code but the copy pool's size). Then, with the
# time left, the tuned section's first row on its restructured harness.
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
timeout 300 .gpu/cuf/cufinufft-bench.sh run $W/cufinufft.csv > $W/cuf-run.log 2>&1; echo "cuf rc=$? at ${SECONDS}s" | tee -a $W/log.txt
grep "^setpts" $W/cufinufft.csv | head -3 | tee -a $W/log.txt
cd .gpu/pack
NUFFTJ_REF=$W/cufinufft.csv NUFFTJ_TESTS_FROM=$NUFFTJ_CHECKOUT/docs/gpu-runs/2026-11-29/s6-call2-mirror-suite/tests.md timeout $((560 - SECONDS)) ./gpu-suite.sh run $W/bench.md bench all nocpu shared > $W/bench.log 2>&1; echo "bench rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^\| (random|radial|kooshball)" $W/bench.md | head -18 | awk -F'|' '{print $2"|"$3"|"$6"|"$7"|"$8"|"$9"|"$10"|"$11}' | cut -c1-200 | tee -a $W/log.txt
if [ $((575 - SECONDS)) -gt 40 ]; then
  NUFFTJ_REF=$W/cufinufft.csv timeout $((575 - SECONDS)) ./gpu-suite.sh run $W/tuned.md tuned 0 > $W/tuned.log 2>&1; echo "tuned rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
fi
cd $W && tar czf $OUT/call3.tgz . && ls -la $OUT
