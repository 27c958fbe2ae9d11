#!/usr/bin/env bash
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
cd .gpu/pack
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
for r in 1 2; do for c in 128 64 32; do
  JAVA_TOOL_OPTIONS=-Dnufftj.coilChunk=$c timeout 60 ./gpu-suite.sh run $W/ab-c$c-r$r.md bench 2,12 nocpu shared > $W/ab-c$c-r$r.log 2>&1; echo "chunk=$c r$r rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
  grep -E "8 transforms" $W/ab-c$c-r$r.md | grep -v e2e | awk -F'|' '{print $2"|"$6"|"$7"|"$10"|"$13}' | cut -c1-200 | tee -a $W/log.txt
  grep -E "8 transforms" $W/ab-c$c-r$r.md | grep "spread [0-9]" | awk -F'|' '{print $5}' | tee -a $W/log.txt
done; done
cd $W && tar czf $OUT/call4.tgz . && ls -la $OUT
