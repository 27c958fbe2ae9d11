#!/usr/bin/env bash
# Sixth session, call 4: the final host-array rule (mirrors where a chunk runs in several pieces, rings for single
# pieces, 8 copy threads). cuFINUFFT 9810998d on the transfer section's rows (1, 2, 5, 7, 12, 14) and the kooshball
# at equal eps (17); GpuTransferTest; the transfer section side by side in a fresh JVM; then the tuned section's row 17
# (the one row where the heuristic's plan is above cuFINUFFT in the complete run of call 3) on its restructured harness.
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
timeout 200 .gpu/cuf/cufinufft-bench.sh run $W/cufinufft.csv 1,2,5,7,12,14,17 > $W/cuf-run.log 2>&1; echo "cuf rc=$? at ${SECONDS}s" | tee -a $W/log.txt
cd .gpu/pack
NUFFTJ_CLASSES=GpuTransferTest timeout 90 ./gpu-suite.sh run $W/tests.md tests > $W/tests.log 2>&1; echo "tests rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "passed|failed" $W/tests.md | head -1 | cut -c1-120 | tee -a $W/log.txt
NUFFTJ_REF=$W/cufinufft.csv timeout 120 ./gpu-suite.sh run $W/transfer.md transfer > $W/transfer.log 2>&1; echo "transfer rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^\| (random|radial|kooshball|mirrored|host copy Java float\[\] → pinned, (8|16))" $W/transfer.md | cut -c1-240 | tee -a $W/log.txt
if [ $((470 - SECONDS)) -gt 45 ]; then
  NUFFTJ_REF=$W/cufinufft.csv timeout $((470 - SECONDS)) ./gpu-suite.sh run $W/tuned.md tuned 17 > $W/tuned.log 2>&1; echo "tuned rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
  grep TUNED $W/tuned.log | tee -a $W/log.txt
fi
cd $W && tar czf $OUT/call4.tgz . && ls -la $OUT
