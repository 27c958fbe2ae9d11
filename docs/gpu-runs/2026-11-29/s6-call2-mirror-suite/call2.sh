#!/usr/bin/env bash
# Sixth session, call 2: the transfer section twice (the mirrors' DMAs per copied unit and output segment, the default;
# then per piece, -Dnufftj.mirrorDma=pieces), with the mirrors' micro rows (15 and 8 copy threads, DMAs overlapping
# the copies or after them); then the whole GPU suite on this code (HostMirror, copy pool of processors - 1).
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
cd .gpu/pack
timeout 100 ./gpu-suite.sh run $W/transfer-units.md transfer > $W/transfer-units.log 2>&1; echo "transfer units rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^\| (random|radial|kooshball|mirrored|staged|pinned|host)" $W/transfer-units.md | cut -c1-220 | tee -a $W/log.txt
NUFFTJ_SUITE_OPTS=-Dnufftj.mirrorDma=pieces timeout 100 ./gpu-suite.sh run $W/transfer-pieces.md transfer > $W/transfer-pieces.log 2>&1; echo "transfer pieces rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^\| (random|radial|kooshball)" $W/transfer-pieces.md | cut -c1-220 | tee -a $W/log.txt
timeout $((580 - SECONDS)) ./gpu-suite.sh run $W/tests.md tests > $W/tests.log 2>&1; echo "tests rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "passed|failed" $W/tests.md | head -2 | cut -c1-200 | tee -a $W/log.txt
grep -E "\| (failed|aborted) \|" $W/tests.md | head -20 | tee -a $W/log.txt
cd $W && tar czf $OUT/call2.tgz . && ls -la $OUT
