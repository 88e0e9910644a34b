#!/usr/bin/env bash
# Issue 33 item 2: N quick runs with CPU isolation off and N with `--isolate-cpus auto`, alternating
# (off, auto, off, auto, ...) so a drift of the host hits both alike, then the table of
# bench/isolation-variance.ts. Each run is a normal, resumable run in <out>/runs; nothing else measures
# meanwhile (one run at a time on this machine).
# usage: bash bench/isolation-variance.sh <out-dir> [runs-per-setting=5] [extra run options...]
set -euo pipefail
out=${1:?usage: bash bench/isolation-variance.sh <out-dir> [runs-per-setting] [run options...]}
n=${2:-5}
shift $(( $# >= 2 ? 2 : 1 ))
mkdir -p "$out/runs"
for i in $(seq 1 "$n"); do
  for iso in off auto; do
    echo "== run $i/$n, --isolate-cpus $iso ($(date -u +%H:%M:%S))" >&2
    npx zx run.mjs --profile quick --isolate-cpus "$iso" --runs-dir "$out/runs" --no-report "$@" >/dev/null
  done
done
node --import tsx bench/isolation-variance.ts "$out"/runs/*/
