#!/usr/bin/env bash
# FFT imaging benchmarks (issue 14), side by side in one run: plane-wave ultrasound f-k migration vs delay-and-sum
# (128 elements x 2048 samples, one frame) and the Cartesian cine series (256^2, 8 coils, 20 frames, end to end from
# an ISMRMRD file) on the given device. Results: docs/benchmarks.md.
#   scripts/fft-imaging-bench.sh [cpu|gpu] [extra JMH arguments]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
device="${1:-cpu}"
shift || true
exec "$root/scripts/jmh.sh" 'PlaneWaveBenchmark|CartesianCineBenchmark' -p device="$device" "$@"
