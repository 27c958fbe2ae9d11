#!/usr/bin/env bash
# Fourth session, call 1: the whole GPU suite on the session's code (the CPU spread's per-subproblem weights and
# addWindow, d527ac8; the GPU code as at 541f4f9, whose coilBlockWarps refactor had not run on a GPU), then the
# 8-coil rows 2, 12, 13 device-resident against the committed report (NUFFTJ_BASELINE) to see the refactor's speed.
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
cd .gpu/pack
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
timeout 420 ./gpu-suite.sh run $W/tests.md tests > $W/tests.log 2>&1; echo "tests rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^CLASS|TESTS:|^FAILED|^aborted" $W/tests.log | cut -c1-250 | tee -a $W/log.txt
left=$((560 - SECONDS))
if [ $left -gt 60 ]; then
  NUFFTJ_BASELINE=$NUFFTJ_CHECKOUT/docs/gpu-report.md timeout $left ./gpu-suite.sh run $W/bench.md bench 2,12,13 nocpu shared > $W/bench.log 2>&1
  echo "bench rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
fi
cd $W && tar czf $OUT/call1.tgz . && ls -la $OUT
