#!/usr/bin/env bash
# Seventh session, call 3: the final kernels (tile walks without per-cell divisions; spread_coils_2d at W = 4 in float
# on interleaved complex tiles with each point's operands read ahead; the batch spreader's subproblems of at most 256
# points) and the review mend bb3aba0 under the GPU tests of the areas they touch.
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
cd .gpu/pack
NUFFTJ_CLASSES=GpuParityTest,GpuNufftPlanTest,GpuSetPointsTest,GpuTransferTest,GpuGraphsTest timeout 240 ./gpu-suite.sh run $W/tests.md tests > $W/tests.log 2>&1; echo "tests rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "passed|failed" $W/tests.md | head -1 | cut -c1-120 | tee -a $W/log.txt; grep -E "\| (FAILED|aborted) \|" $W/tests.md | head -10 | cut -c1-300 | tee -a $W/log.txt
cd $W && tar czf $OUT/call3.tgz . && ls -la $OUT
