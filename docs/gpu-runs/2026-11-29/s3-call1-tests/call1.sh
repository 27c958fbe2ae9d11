#!/usr/bin/env bash
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
cd .gpu/pack
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
echo "code: $(cd $NUFFTJ_CHECKOUT && git log --oneline -1 2>/dev/null)" | tee -a $W/log.txt
timeout 545 ./gpu-suite.sh run $W/tests.md tests > $W/tests.log 2>&1; echo "tests rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^CLASS|TESTS:|^FAILED|^aborted" $W/tests.log | cut -c1-250 | tee -a $W/log.txt
cd $W && tar czf $OUT/call1.tgz . && ls -la $OUT
