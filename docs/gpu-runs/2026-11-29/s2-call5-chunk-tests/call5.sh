#!/usr/bin/env bash
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
cd .gpu/pack
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
NUFFTJ_CLASSES=GpuParityTest timeout 110 ./gpu-suite.sh run $W/tests.md tests > $W/tests.log 2>&1; echo "tests rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^CLASS|TESTS:|^FAILED|^aborted" $W/tests.log | cut -c1-250 | tee -a $W/log.txt
timeout 70 ./gpu-suite.sh run $W/rows.md bench 2,12,13 nocpu shared > $W/rows.log 2>&1; echo "rows rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "8 transforms" $W/rows.md | grep -v "e2e\|spread [0-9]" | awk -F'|' '{print $2"|"$3"|"$5"|"$6"|"$9"|"$13}' | cut -c1-200 | tee -a $W/log.txt
grep -E "8 transforms" $W/rows.md | grep "spread [0-9]" | awk -F'|' '{print $2"|"$5}' | cut -c1-150 | tee -a $W/log.txt
cd $W && tar czf $OUT/call5.tgz . && ls -la $OUT
