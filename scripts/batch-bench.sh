#!/usr/bin/env bash
# Throughput of many small scans: a serial loop of `nufft-j recon` processes against one `nufft-j batch` process (one
# worker, and one worker per device), on the same generated scans, in one run. Prints a Markdown table.
#
#   scripts/batch-bench.sh [N] [DEVICES]      N scans (default 50; 8-coil 128² golden-angle radial from `simulate`),
#                                             DEVICES for the batch's --devices row (default cpu,cpu; e.g. gpu:all)
# Runs `java -cp $NUFFTJ_CP org.nufftj.cli.Main` ($NUFFTJ_CP: classes and dependency jars, e.g. the GPU pack's; default:
# target/classes plus the Maven test classpath) with $JAVA (default: java on the PATH).
# With NUFFTJ_SPARK=1 (needs spark/target/*-app.jar: mvn -B -q install -DskipTests && mvn -B -f spark/pom.xml package)
# a last row runs the same scans as one Spark job in local mode (local[cores], Spark's own jars from the spark module's
# Maven classpath), so Spark's overhead per scan is the difference to the batch row.
set -euo pipefail
n="${1:-50}"; devices="${2:-cpu,cpu}"
root="$(cd "$(dirname "$0")/.." && pwd)"
java="${JAVA:-java}"
if [ -z "${NUFFTJ_CP:-}" ]; then
  (cd "$root" && mvn -B -q -o compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt >/dev/null)
  NUFFTJ_CP="$root/target/classes:$(cat "$root/target/cp.txt")"
fi
run() { "$java" -Xmx8g -cp "$NUFFTJ_CP" org.nufftj.cli.Main "$@"; }
work="$(mktemp -d)"; trap 'rm -rf "$work"' EXIT
mkdir -p "$work/scans"
for i in $(seq 1 "$n"); do
  run simulate --trajectory "golden angle" --matrix 128 --coils 8 --seed "$i" "$work/scans/s${i}_traj" "$work/scans/s$i" >/dev/null
done
ms() { echo $(( $(date +%s%N) / 1000000 )); }
t0=$(ms); for i in $(seq 1 "$n"); do run recon --device cpu "$work/scans/s$i" "$work/serial-$i.cfl" >/dev/null 2>&1; done; t1=$(ms)
run batch --device cpu --name '{name}.cfl' --out "$work/batch" "$work/scans" >/dev/null 2>&1; t2=$(ms)
run batch --devices "$devices" --name '{name}.cfl' --out "$work/multi" "$work/scans" >/dev/null 2>&1 || true; t3=$(ms)
t4=$t3
if [ "${NUFFTJ_SPARK:-0}" = 1 ]; then
  (cd "$root/spark" && mvn -B -q -o dependency:build-classpath -Dmdep.outputFile=target/cp.txt >/dev/null)
  spark_cp="$(ls "$root"/spark/target/*-app.jar):$(cat "$root/spark/target/cp.txt")"
  # The module openings Spark 3.5 needs on Java 17 (as spark-submit and spark/pom.xml's surefire argLine give them).
  opens=""; for p in java.lang java.lang.invoke java.lang.reflect java.io java.net java.nio java.util java.util.concurrent \
    java.util.concurrent.atomic sun.nio.ch sun.nio.cs sun.security.action sun.util.calendar; do
    opens="$opens --add-opens=java.base/$p=ALL-UNNAMED"; done
  # shellcheck disable=SC2086
  "$java" -Xmx8g $opens -Dspark.master="local[$(nproc)]" -Dspark.ui.enabled=false -cp "$spark_cp" org.nufftj.spark.SparkBatch \
    --name '{name}.cfl' --out "$work/spark" --summary "$work/spark-summary.csv" "$work/scans" >/dev/null 2>&1 || true
  t4=$(ms)
fi
echo "| $n scans, 8 coils, 128² radial, $(nproc) cores | wall s | scans/min | per scan ms |"
echo "|---|---|---|---|"
rows=("serial nufft-j recon processes (cpu):$((t1 - t0))" "one nufft-j batch process (cpu):$((t2 - t1))"
  "one nufft-j batch process, --devices $devices:$((t3 - t2))")
[ "${NUFFTJ_SPARK:-0}" = 1 ] && rows+=("one Spark job, local[$(nproc)] (JVM start to summary):$((t4 - t3))")
for row in "${rows[@]}"; do
  name="${row%%:*}"; t="${row##*:}"
  awk -v n="$n" -v t="$t" -v name="$name" 'BEGIN { printf "| %s | %.1f | %.0f | %.0f |\n", name, t / 1000, n * 60000 / t, t / n }'
done
grep -c ",ok," "$work/multi/summary.csv" | awk -v n="$n" '{ print "\n(--devices run: " $1 " of " n " scans ok)" }'
if [ "${NUFFTJ_SPARK:-0}" = 1 ]; then
  grep -c ",ok," "$work/spark-summary.csv" 2>/dev/null | awk -v n="$n" '{ print "(Spark run: " $1 " of " n " scans ok)" }' || true
fi
