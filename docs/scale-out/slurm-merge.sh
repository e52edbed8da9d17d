#!/bin/bash
# Joins the shards' reports once every task of the array has succeeded (slurm-submit.sh submits it with
# --dependency=afterok on the array). The campaign's summary is this job's output, campaign.txt; its
# counterexamples go to counterexamples/, its JSON report to campaign.json (outside reports/, which the
# merge reads), and the job's exit code is the campaign's verdict (docs/scale-out.md).
#SBATCH --job-name=lessor-sim-merge
#SBATCH --cpus-per-task=1
#SBATCH --output=campaign.txt
#SBATCH --error=campaign.err
set -euo pipefail
exec npx lessor-sim check merge reports --allow-known --out counterexamples --reporter json --output campaign.json
