#!/usr/bin/env bash
# Seventh session, call 2: spread_coils_2d on interleaved complex tiles at W = 4 (call 1's variant "cplx", the base
# here) against three more variants built from kernels/spread.cu with -DNUFFTJ_COIL_CPLX=1 and
# __launch_bounds__(256, 5): "pipe" (-DNUFFTJ_COIL_PIPE=1: a chunk's sample indices loaded a chunk ahead, its samples
# loaded together), "next" (-DNUFFTJ_COIL_NEXT=1: a point's operands read before the previous point's tile update),
# "both"; and "both" with subproblems of at most 256 points for the batch spreader's bins (-Dnufftj.coilMaxSub=256).
# GpuParityTest on "both"; rows 2, 12, 13 (8 transforms; W 4, 4, 8), two rounds alternating.
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
K=src/main/resources/org/nufftj/gpu
mkpack() { # NAME SPREAD.fatbin
  local d=/tmp/pk-$1; rm -rf $d; cp -r .gpu/pack $d; mkdir -p $d/classes/org/nufftj/gpu; cp $K/*.fatbin $d/classes/org/nufftj/gpu/
  cp $2 $d/classes/org/nufftj/gpu/spread.fatbin; }
for v in cplx pipe next both; do mkpack $v .gpu/ab/spread-$v.fatbin; done
sha256sum /tmp/pk-*/classes/org/nufftj/gpu/spread.fatbin | tee -a $W/log.txt
NUFFTJ_CLASSES=GpuParityTest timeout 90 /tmp/pk-both/gpu-suite.sh run $W/tests-both.md tests > $W/tests-both.log 2>&1; echo "tests both rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "passed|failed" $W/tests-both.md | head -1 | cut -c1-100 | tee -a $W/log.txt; grep -E "\| (failed|aborted) \|" $W/tests-both.md | head -5 | tee -a $W/log.txt
for r in 1 2; do
  for v in cplx pipe next both sub256; do
    pk=$v; opts=""; [ $v = sub256 ] && { pk=both; opts=-Dnufftj.coilMaxSub=256; }
    NUFFTJ_SUITE_OPTS="$opts" timeout 75 /tmp/pk-$pk/gpu-suite.sh run $W/ab-$v-r$r.md bench 2,12,13 nocpu shared > $W/ab-$v-r$r.log 2>&1; echo "ab $v r$r rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
    grep -E "^\| (random|radial)" $W/ab-$v-r$r.md | head -3 | awk -F'|' '{print $2"|"$6"|"$9}' | tee -a $W/log.txt
    grep -E "spread [0-9]" $W/ab-$v-r$r.md | head -3 | awk -F'|' '{print $5}' | tee -a $W/log.txt
  done
done
cd $W && tar czf $OUT/call2.tgz . && ls -la $OUT
