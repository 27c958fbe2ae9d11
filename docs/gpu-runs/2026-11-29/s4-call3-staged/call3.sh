#!/usr/bin/env bash
# Fourth session, call 3: the point-serial 3D spreader with its stage as products (sample × ψx, ψy·ψz) against the
# same spreader before (spread_serial1_3d_*, -Dnufftj.spread3d=serial1; float, W = 5, 7, 8): GpuParityTest (every
# width, both precisions, against the atomic spreader and the CPU engine) and GpuNufftPlanTest on the new one, then the
# 3D rows 5, 6, 14, 15, 17 device-resident, old and new alternating, two rounds.
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
cd .gpu/pack
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
NUFFTJ_CLASSES=GpuParityTest timeout 120 ./gpu-suite.sh run $W/parity.md tests > $W/parity.log 2>&1; echo "parity rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^CLASS|TESTS:|^FAILED|^failed|^aborted" $W/parity.log | cut -c1-300 | tee -a $W/log.txt
NUFFTJ_CLASSES=GpuNufftPlanTest timeout 130 ./gpu-suite.sh run $W/plan.md tests > $W/plan.log 2>&1; echo "plan tests rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^CLASS|TESTS:|^FAILED|^failed|^aborted" $W/plan.log | cut -c1-300 | tee -a $W/log.txt
for round in 1 2; do
  for v in serial1 serial; do
    left=$((575 - SECONDS)); [ $left -lt 40 ] && break 2
    NUFFTJ_SUITE_OPTS=-Dnufftj.spread3d=$v NUFFTJ_BASELINE=$NUFFTJ_CHECKOUT/docs/gpu-report.md timeout $left \
      ./gpu-suite.sh run $W/bench-$v-r$round.md bench 5,6,14,15,17 nocpu shared > $W/bench-$v-r$round.log 2>&1
    echo "bench $v round $round rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
    grep -E " eps " $W/bench-$v-r$round.log | sed -E 's/ e2e.*\[kb/ [kb/' | cut -c1-260 | tee -a $W/log.txt
  done
done
cd $W && tar czf $OUT/call3.tgz . && ls -la $OUT
