#!/usr/bin/env bash
# Fourth session, call 4: the whole GPU suite on the final code (the point-serial 3D spreader with its stage as
# products, kept after call 3), then the 3D rows 5, 6, 14, 15, 17 device-resident.
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
cd .gpu/pack
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
timeout 440 ./gpu-suite.sh run $W/tests.md tests > $W/tests.log 2>&1; echo "tests rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^CLASS|TESTS:|^FAILED|^failed|^aborted" $W/tests.log | cut -c1-250 | tee -a $W/log.txt
left=$((560 - SECONDS))
if [ $left -gt 45 ]; then
  NUFFTJ_BASELINE=$NUFFTJ_CHECKOUT/docs/gpu-report.md timeout $left ./gpu-suite.sh run $W/bench.md bench 5,6,14,15,17 nocpu shared > $W/bench.log 2>&1
  echo "bench rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
  grep -E " eps " $W/bench.log | sed -E 's/ e2e.*\[kb/ [kb/' | cut -c1-260 | tee -a $W/log.txt
fi
cd $W && tar czf $OUT/call4.tgz . && ls -la $OUT
