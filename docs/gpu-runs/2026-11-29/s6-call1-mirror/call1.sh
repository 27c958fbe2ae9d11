#!/usr/bin/env bash
# Sixth session, call 1: Java-array executes through the pinned mirrors (HostMirror) — GpuTransferTest (mirrors,
# small units, float[] arrays, rings) and GpuTunerTest; the transfer section (mirrors against rings against pinned
# arrays); the A/B of spread_coils_2d_f_w4_v2 (GpuParityTest with it, then rows 2 and 12 alternating, two rounds);
# the precomputed-matrix section on the H200 with the time left.
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
cd .gpu/pack
NUFFTJ_CLASSES=GpuTransferTest,GpuTunerTest timeout 170 ./gpu-suite.sh run $W/tests.md tests > $W/tests.log 2>&1; echo "tests rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "passed|failed" $W/tests.md | head -3 | tee -a $W/log.txt
timeout 150 ./gpu-suite.sh run $W/transfer.md transfer > $W/transfer.log 2>&1; echo "transfer rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^\| (random|radial|kooshball|mirrored|staged|pinned|host)" $W/transfer.md | cut -c1-220 | tee -a $W/log.txt
NUFFTJ_SUITE_OPTS=-Dnufftj.coilVariant=2 NUFFTJ_CLASSES=GpuParityTest timeout 120 ./gpu-suite.sh run $W/parity-v2.md tests > $W/parity-v2.log 2>&1; echo "parity v2 rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "passed|failed" $W/parity-v2.md | head -3 | tee -a $W/log.txt
for r in 1 2; do
  for v in 1 2; do
    NUFFTJ_SUITE_OPTS=-Dnufftj.coilVariant=$v timeout 60 ./gpu-suite.sh run $W/ab-v$v-r$r.md bench 2,12 nocpu shared > $W/ab-v$v-r$r.log 2>&1; echo "ab v$v r$r rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
    grep -E "^\| (random|radial)" $W/ab-v$v-r$r.md | head -2 | cut -c1-200 | tee -a $W/log.txt
    grep -E "spread" $W/ab-v$v-r$r.md | grep -E "8 transforms" | head -2 | cut -c1-200 | tee -a $W/log.txt
  done
done
timeout $((570 - SECONDS)) ./gpu-suite.sh run $W/matrix.md matrix > $W/matrix.log 2>&1; echo "matrix rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
cd $W && tar czf $OUT/call1.tgz . && ls -la $OUT
