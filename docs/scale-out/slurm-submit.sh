#!/bin/bash
# Submits a lessor-sim campaign to Slurm as a job array of SHARDS shards and a merge that runs once all of
# them have succeeded (docs/scale-out.md). Run it from the folder the reports should go to:
#   bash slurm-submit.sh 8 --seed 42 --runs 100000
# The flags after SHARDS are the campaign's, as `lessor-sim check` takes them (not --shard, --out,
# --reporter, --output or --exit-zero: the shard script sets those). Prints the two job ids.
set -euo pipefail
if [ $# -lt 1 ] || ! [[ $1 =~ ^[1-9][0-9]*$ ]]; then
  echo "usage: slurm-submit.sh SHARDS [CHECK FLAGS...]" >&2
  exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
shards=$1
shift
mkdir -p reports
# --parsable prints "id" or "id;cluster".
array=$(sbatch --parsable --array="0-$((shards - 1))" "$here/slurm-shard.sh" "$@")
array=${array%%;*}
# A shard that fails makes afterok unsatisfiable: the merge is then cancelled instead of waiting forever.
merge=$(sbatch --parsable --dependency="afterok:$array" --kill-on-invalid-dep=yes "$here/slurm-merge.sh")
merge=${merge%%;*}
echo "shards: job $array (array 0-$((shards - 1))); merge: job $merge, summary in campaign.txt"
