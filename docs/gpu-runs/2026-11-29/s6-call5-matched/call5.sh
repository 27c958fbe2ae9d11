#!/usr/bin/env bash
# Sixth session, call 5: the equal-eps rows (16, 17) at equal or lower achieved error, on the final code: cuFINUFFT
# 9810998d on rows 16 and 17 (at their eps, 1e-5), then `matched 16,17`: the heuristic's plans at 100, 30, 10, 3 and 1
# x that eps, per direction the fastest of ours whose achieved error is at most cuFINUFFT's.
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
timeout 150 .gpu/cuf/cufinufft-bench.sh run $W/cufinufft.csv 16,17 > $W/cuf-run.log 2>&1; echo "cuf rc=$? at ${SECONDS}s" | tee -a $W/log.txt
cd .gpu/pack
NUFFTJ_REF=$W/cufinufft.csv timeout $((270 - SECONDS)) ./gpu-suite.sh run $W/matched.md matched 16,17 > $W/matched.log 2>&1; echo "matched rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
grep -E "^\| (radial|kooshball)" $W/matched.md | cut -c1-250 | tee -a $W/log.txt
cd $W && tar czf $OUT/call5.tgz . && ls -la $OUT
