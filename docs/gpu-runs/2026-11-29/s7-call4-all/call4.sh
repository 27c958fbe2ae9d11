#!/usr/bin/env bash
# Seventh session, call 4: the complete run of docs/gpu-report.md on the final code (16534d9: tile walks, interleaved
# tiles of the batch spreader at W = 4, its subproblems of 256 points): cuFINUFFT 9810998d built from its public source
# and timed on the 18 rows, then our 18 rows and the exact, own-FFT, transfer, f-k and streaming sections in the same
# call (pack: NUFFTJ_PACK_LEAN=1, beside .gpu/cuf under the upload limit); the tests section from s7-call3 (the GPU
# tests of the areas the kernels touch, on the same code).
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
timeout 270 .gpu/cuf/cufinufft-bench.sh run $W/cufinufft.csv > $W/cuf-run.log 2>&1; echo "cuf rc=$? at ${SECONDS}s" | tee -a $W/log.txt
grep "^setpts" $W/cufinufft.csv | head -3 | tee -a $W/log.txt
cd .gpu/pack
NUFFTJ_REF=$W/cufinufft.csv NUFFTJ_TESTS_FROM=$NUFFTJ_CHECKOUT/docs/gpu-runs/2026-11-29/s7-call3-tests/tests.md timeout $((572 - SECONDS)) ./gpu-suite.sh run $W/bench.md bench all nocpu shared > $W/bench.log 2>&1; echo "bench rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^\| (random|radial|kooshball)" $W/bench.md | head -18 | awk -F'|' '{print $2"|"$3"|"$6"|"$7"|"$8"|"$9"|"$10"|"$11}' | cut -c1-200 | tee -a $W/log.txt
cd $W && tar czf $OUT/call4.tgz . && ls -la $OUT
