#!/usr/bin/env bash
# Seventh session, call 7 (the command as given to the device, same warm machine, code and pack as call 5):
# cuFINUFFT 9810998d and our bench on rows 0, 1, 3, 8, 10, 11, 14, 15 side by side.
set -o pipefail; export NUFFTJ_CHECKOUT=$PWD; W=$OUT; timeout 80 .gpu/cuf/cufinufft-bench.sh run $W/cufinufft.csv 0,1,3,8,10,11,14,15 > $W/cuf-run.log 2>&1; echo "cuf rc=$? at ${SECONDS}s" | tee -a $W/log.txt; cd .gpu/pack; NUFFTJ_REF=$W/cufinufft.csv timeout $((200 - SECONDS)) ./gpu-suite.sh run $W/bench.md bench 0,1,3,8,10,11,14,15 nocpu shared > $W/bench.log 2>&1; echo "bench rc=$? at ${SECONDS}s" | tee -a $W/log.txt; grep -E "^\| (random|radial|kooshball)" $W/bench.md | head -8 | awk -F'|' '{print $2"|"$3"|"$6"|"$7"|"$8"|"$9"|"$10"|"$11}' | tee -a $W/log.txt
