#!/usr/bin/env bash
# Fifth session, call 2: cuFINUFFT 9810998d built and timed on the 18 rows, then the "tuned" section in the same call
# (per row and direction a quick tuning run on the row's points, then the heuristic's plan and the winner timed
# device-resident, alternating), then GpuTunerTest on the new tuner.
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
timeout 300 .gpu/cuf/cufinufft-bench.sh run $W/cufinufft.csv > $W/cuf-run.log 2>&1; echo "cuf rc=$? at ${SECONDS}s" | tee -a $W/log.txt
cd .gpu/pack
NUFFTJ_REF=$W/cufinufft.csv timeout $((500 - SECONDS)) ./gpu-suite.sh run $W/tuned.md tuned 17,3,0,16,15,14,13,12,11,10,9,8,7,6,5,4,2,1 > $W/tuned.log 2>&1; echo "tuned rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep "^TUNED" $W/tuned.log | cut -c1-330 | tee -a $W/log.txt
left=$((585 - SECONDS))
if [ $left -gt 40 ]; then
  NUFFTJ_CLASSES=GpuTunerTest timeout $left ./gpu-suite.sh run $W/tests.md tests > $W/tests.log 2>&1; echo "tests rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
  grep -E "^CLASS|TESTS:|^FAILED|^failed|^aborted" $W/tests.log | cut -c1-250 | tee -a $W/log.txt
fi
cd $W && tar czf $OUT/call2.tgz . && ls -la $OUT
