#!/usr/bin/env bash
# Issue 33 item 2: N runs with CPU isolation off and N with `--isolate-cpus auto`, alternating
# (off, auto, off, auto, ...) so a drift of the host hits both alike, then the table of
# bench/isolation-variance.ts. Each run is a normal, resumable run in <out>/runs; nothing else measures
# meanwhile (one run at a time on this machine).
#
# LOAD=k starts k competing busy loops (one shell `while :; do :; done` each, unpinned, each bounded by
# `timeout 1800`: a run longer than 30 min loses its load, longer than any quick run here) beside every
# run and stops them (`kill` of the timeout's pid, which passes it on) when the run ends: the "competing
# CPU load" case. Default LOAD=0 (a quiet host).
#
# usage: [LOAD=2] bash bench/isolation-variance.sh <out-dir> [runs-per-setting=5] [run options...]
#   study 000 quick (default):   bash bench/isolation-variance.sh /tmp/iso-quiet 5
#   a CPU-bound study 002 cell:  bash bench/isolation-variance.sh /tmp/iso-cpu 5 --study 002 \
#                                  --variants cpu-pool-200,cpu-virtual --levels 30
set -euo pipefail
out=${1:?usage: [LOAD=k] bash bench/isolation-variance.sh <out-dir> [runs-per-setting] [run options...]}
n=${2:-5}
load=${LOAD:-0}
shift $(( $# >= 2 ? 2 : 1 ))
mkdir -p "$out/runs"
pids=()
stop_load() { for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done; pids=(); }
trap stop_load EXIT
for i in $(seq 1 "$n"); do
  for iso in off auto; do
    echo "== run $i/$n, --isolate-cpus $iso, $load busy loop(s) ($(date -u +%H:%M:%S))" >&2
    for _ in $(seq 1 "$load"); do timeout 1800 sh -c 'while :; do :; done' & pids+=("$!"); done
    npx zx run.mjs --profile quick --isolate-cpus "$iso" --runs-dir "$out/runs" --no-report "$@" >/dev/null
    stop_load
  done
done
node --import tsx bench/isolation-variance.ts "$out"/runs/*/
