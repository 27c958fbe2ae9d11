#!/usr/bin/env bash
# Seventh session, call 6 (the command as given to the device, same warm machine, same code and pack as call 5): the
# transfer section in a fresh JVM (no NUFFTJ_REF: its "ref pinned" column is GpuBenchmark's stored reference figures,
# not a cuFINUFFT run of this call). The command went on to cuFINUFFT and more rows, but its `pkill -f org.nufftj`
# matched its own shell and ended it (rc -1) after the transfer section; call 7 ran the rest.
set -o pipefail; export NUFFTJ_CHECKOUT=$PWD; W=$OUT; cd .gpu/pack; timeout 70 ./gpu-suite.sh run $W/transfer.md transfer > $W/transfer.log 2>&1; echo "transfer rc=$? at ${SECONDS}s" | tee -a $W/log.txt; pkill -9 -f org.nufftj
