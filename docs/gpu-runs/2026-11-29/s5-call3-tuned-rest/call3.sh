#!/usr/bin/env bash
# Fifth session, call 3: cuFINUFFT 9810998d built and timed on rows 0-8 and 17; GpuTunerTest on the new tuner (call 2
# cut it); the "tuned" section for the rows call 2 did not reach (inputs now drawn once per row and direction); rows
# 0, 3, 17 of the benchmark table again, now after the JVM warm-up the table has from this call on.
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
timeout 260 .gpu/cuf/cufinufft-bench.sh run $W/cufinufft.csv 0,1,2,3,4,5,6,7,8,17 > $W/cuf-run.log 2>&1; echo "cuf rc=$? at ${SECONDS}s" | tee -a $W/log.txt
cd .gpu/pack
NUFFTJ_CLASSES=GpuTunerTest timeout 150 ./gpu-suite.sh run $W/tests.md tests > $W/tests.log 2>&1; echo "tests rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^CLASS|TESTS:|^FAILED|^failed|^aborted|Tests run|tests successful|tests failed" $W/tests.log | cut -c1-250 | tee -a $W/log.txt
NUFFTJ_REF=$W/cufinufft.csv timeout $((500 - SECONDS)) ./gpu-suite.sh run $W/tuned.md tuned 8,7,6,5,4,2,1 > $W/tuned.log 2>&1; echo "tuned rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep "^TUNED" $W/tuned.log | cut -c1-330 | tee -a $W/log.txt
left=$((585 - SECONDS))
if [ $left -gt 40 ]; then
  NUFFTJ_REF=$W/cufinufft.csv timeout $left ./gpu-suite.sh run $W/bench.md bench 0,3,17 nocpu shared > $W/bench.log 2>&1; echo "bench rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
  grep -E " eps " $W/bench.log | sed -E 's/ e2e.*\[kb/ [kb/' | cut -c1-260 | tee -a $W/log.txt
fi
cd $W && tar czf $OUT/call3.tgz . && ls -la $OUT
