#!/usr/bin/env bash
# Seventh session, call 1: tile flushes and tile loads without per-cell divisions (TileWalk; every shared spreader and
# interp_tiles) and, as a variant, spread_coils_2d at W = 4 on interleaved complex tiles (-DNUFFTJ_COIL_CPLX=1).
# GpuParityTest, GpuNufftPlanTest, GpuTransferTest (also the review mend bb3aba0), GpuSetPointsTest on the new kernels;
# GpuParityTest on the variant; rows 0, 2, 12, 17 with the old kernels (HEAD's spread and interp), the new ones and the
# variant, two rounds alternating; Nsight Compute on the new batch spreader (row 12).
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
NCU=$(ls /usr/local/cuda*/bin/ncu 2>/dev/null | head -1); echo "ncu: $NCU" | tee -a $W/log.txt
K=src/main/resources/org/nufftj/gpu
mkpack() { # NAME [SPREAD.fatbin] [INTERP.fatbin]
  local d=/tmp/pk-$1; rm -rf $d; cp -r .gpu/pack $d; mkdir -p $d/classes/org/nufftj/gpu; cp $K/*.fatbin $d/classes/org/nufftj/gpu/
  [ -n "${2:-}" ] && cp $2 $d/classes/org/nufftj/gpu/spread.fatbin; [ -n "${3:-}" ] && cp $3 $d/classes/org/nufftj/gpu/interp.fatbin; true; }
mkpack new; mkpack old .gpu/ab/spread-old.fatbin .gpu/ab/interp-old.fatbin; mkpack cplx .gpu/ab/spread-cplx.fatbin
sha256sum /tmp/pk-*/classes/org/nufftj/gpu/{spread,interp}.fatbin | tee -a $W/log.txt
NUFFTJ_CLASSES=GpuParityTest,GpuNufftPlanTest,GpuTransferTest,GpuSetPointsTest timeout 200 /tmp/pk-new/gpu-suite.sh run $W/tests-new.md tests > $W/tests-new.log 2>&1; echo "tests new rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "passed|failed" $W/tests-new.md | head -1 | cut -c1-100 | tee -a $W/log.txt; grep -E "\| (failed|aborted) \|" $W/tests-new.md | head -5 | tee -a $W/log.txt
NUFFTJ_CLASSES=GpuParityTest timeout 90 /tmp/pk-cplx/gpu-suite.sh run $W/tests-cplx.md tests > $W/tests-cplx.log 2>&1; echo "tests cplx rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "passed|failed" $W/tests-cplx.md | head -1 | cut -c1-100 | tee -a $W/log.txt; grep -E "\| (failed|aborted) \|" $W/tests-cplx.md | head -5 | tee -a $W/log.txt
for r in 1 2; do
  for v in old new cplx; do
    timeout 80 /tmp/pk-$v/gpu-suite.sh run $W/ab-$v-r$r.md bench 0,2,12,17 nocpu shared > $W/ab-$v-r$r.log 2>&1; echo "ab $v r$r rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
    grep -E "^\| (random|radial|kooshball)" $W/ab-$v-r$r.md | head -4 | cut -c1-120 | tee -a $W/log.txt
    grep -E "spread" $W/ab-$v-r$r.md | head -4 | cut -c1-200 | tee -a $W/log.txt
  done
done
if [ -n "$NCU" ]; then
  cd /tmp/pk-new
  timeout $((575 - SECONDS)) $NCU --target-processes all --clock-control none -k regex:'spread_coils_2d' --launch-skip 6 --launch-count 1 \
    --set full --import-source no -o $W/coils ./gpu-suite.sh run $W/ncu-bench.md bench 12 nocpu shared > $W/ncu.log 2>&1; echo "ncu rc=$? at ${SECONDS}s" | tee -a $W/log.txt
  $NCU -i $W/coils.ncu-rep --page details > $W/ncu-details.txt 2>&1
  $NCU -i $W/coils.ncu-rep --page source --csv --print-source sass > $W/ncu-sass.csv 2>&1
  grep -E "Duration|Occupancy|Throughput|Stall|Issue|Warp Cycles|Executed Ipc" $W/ncu-details.txt | head -40 | tee -a $W/log.txt
  cd - >/dev/null
fi
cd $W && tar czf $OUT/call1.tgz . && ls -la $OUT
