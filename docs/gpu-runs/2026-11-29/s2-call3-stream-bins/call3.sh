#!/usr/bin/env bash
set -o pipefail
export NUFFTJ_CHECKOUT=$PWD
W=$(mktemp -d)
cd .gpu/pack
clean() { pkill -9 -f org.nufftj >/dev/null 2>&1; sleep 1; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | tee $W/log.txt
for r in 1 2; do for c in auto false; do
  JAVA_TOOL_OPTIONS=-Dnufftj.spreadCoils=$c timeout 40 ./gpu-suite.sh run $W/stream-$c-r$r.md stream > $W/stream-$c-r$r.log 2>&1; echo "stream coils=$c r$r rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
  grep -E "^\| gpu" $W/stream-$c-r$r.md | cut -c1-120 | tee -a $W/log.txt
done; done
run() { # name rows method
  timeout 60 ./gpu-suite.sh run $W/$1.md bench $2 nocpu $3 > $W/$1.log 2>&1; echo "$1 rc=$? at ${SECONDS}s" | tee -a $W/log.txt; clean
  grep -E "^\| (random|radial|kooshball)" $W/$1.md | grep -v "e2e\|subproblems" | awk -F'|' '{print $2"|"$4"|"$6"|"$7"|"$8"|"$9"|"$10"|"$11}' | cut -c1-200 | tee -a $W/log.txt
  grep -E "spread [0-9]" $W/$1.md | awk -F'|' '{print $5"|"$6}' | cut -c1-140 | tee -a $W/log.txt
}
for r in 1 2; do for b in shared shared@16x16 shared@32x32 shared@64x16; do run w8-$b-r$r 3,11 $b; done; done
for b in shared@16x32 shared@64x32 shared@8x8; do run w8-$b 3,11 $b; done
for b in shared shared@16x8x8 shared@16x16x8 shared@8x8x16; do [ $SECONDS -lt 520 ] && run k17-$b 17 $b; done
cd $W && tar czf $OUT/call3.tgz . && ls -la $OUT
