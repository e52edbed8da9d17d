#!/bin/bash
# One shard of a lessor-sim campaign per task of a Slurm job array (docs/scale-out.md); slurm-submit.sh
# submits it with the campaign's flags after the script. Task i runs shard i of as many as the array has
# (SLURM_ARRAY_TASK_ID counts from 0, as --shard does) and writes reports/shard-i.json, its counterexamples
# to reports/shard-i/ and its log to reports/shard-i.log, in the folder the campaign was submitted from.
# One worker keeps about 1.5 cores busy: ask for 2 CPUs a worker, and give each worker 1,500 runs or more.
#SBATCH --job-name=lessor-sim-shard
#SBATCH --cpus-per-task=2
#SBATCH --output=reports/shard-%a.log
set -euo pipefail
i=$SLURM_ARRAY_TASK_ID
# --exit-zero: a shard that found violations still succeeds, so the merge (afterok) runs; it gives the verdict.
exec npx lessor-sim check "$@" --shard "$i/$SLURM_ARRAY_TASK_COUNT" --workers 1 \
  --out "reports/shard-$i" --reporter json --output "reports/shard-$i.json" --exit-zero
