#!/usr/bin/env bash
# Seventh session, call 8 (the command as given to the device, same warm machine, code and pack as call 5): cuFINUFFT
# on rows 4, 5, 6, 7, 9, then ours. cuFINUFFT's method sweep on the 3D rows outlasted the 60 s given (rc 124, its
# rows 4-6 in cufinufft.csv.tmp), so our bench had no reference file and stopped at once (rc 1); the session's device
# time was then spent. These five rows have no side-by-side figures on this code.
set -o pipefail; export NUFFTJ_CHECKOUT=$PWD; W=$OUT; timeout 60 .gpu/cuf/cufinufft-bench.sh run $W/cufinufft.csv 4,5,6,7,9 > $W/cuf-run.log 2>&1; echo "cuf rc=$? at ${SECONDS}s" | tee -a $W/log.txt; cd .gpu/pack; NUFFTJ_REF=$W/cufinufft.csv timeout $((135 - SECONDS)) ./gpu-suite.sh run $W/bench.md bench 4,5,6,7,9 nocpu shared > $W/bench.log 2>&1; echo "bench rc=$? at ${SECONDS}s" | tee -a $W/log.txt
