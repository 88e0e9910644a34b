#!/usr/bin/env bash
# Issue 32: does `run.mjs target`, pointed at vtbench's own SUT jar as at any Spring Boot jar, measure what
# the native study 000 path measures for the same cells? Runs, one after the other (never at once):
#   1. the native path: study 000 `quick` with the fixed pool of 32 and virtual threads at the given level,
#      workers started together;
#   2. the same jar as a target (agent tier): vtbench's mock at 1,500 ms through {mockUrl}, the same JVM
#      flags, arms of the same executors (the SUT's own bench.executor.* properties), the same level and
#      requests per worker, one POST /api/benchmark/llm each;
# then bench/target-agreement.ts compares them. Both are normal, resumable runs under <out>/runs.
# usage: bash bench/target-agreement.sh <out-dir> [level=100] [requests-per-worker=8]
set -euo pipefail
out=${1:?usage: bash bench/target-agreement.sh <out-dir> [level] [requests-per-worker]}
level=${2:-100}
n=${3:-8}
mkdir -p "$out/runs"
# the target command starts its workers together: so does the native run here (quick's default is a ramp)
# (a finished native run in <out> is kept: run the script again to redo only what is missing)
if ! ls -d "$out"/runs/*-000-quick/summary.json >/dev/null 2>&1; then
  npx zx run.mjs --profile quick --variants fixed,virtual --levels "$level" --requests-per-worker "$n" --start together \
    --runs-dir "$out/runs" --no-report >&2
fi
native=$(ls -d "$out"/runs/*-000-quick | tail -1)
req="$out/llm.jsonl"
printf '%s\n' '# study 000'"'"'s request: one prompt through Spring AI to the mock LLM' \
  '{"name":"llm","method":"POST","path":"/api/benchmark/llm","body":{"prompt":"Explain in one sentence why blocking I/O holds a platform thread."}}' > "$req"
npx zx run.mjs target --target-jar sut/target/vtbench-sut.jar \
  --target-jvm-arg=--enable-preview --target-jvm-arg=-Xms512m --target-jvm-arg=-Xmx512m --target-jvm-arg=-XX:+UseG1GC \
  --target-mock 1500 --target-arg=--spring.ai.openai.base-url={mockUrl}/v1 \
  --arms '' --arm fixed:bench.executor.kind=platform-pool,bench.executor.threads=32,bench.executor.queue-capacity=10000 \
  --arm virtual:bench.executor.kind=virtual-per-task \
  --requests "$req" --levels "$level" --requests-per-worker "$n" --warmup-requests 1 --alone-probe 5 --agent \
  --runs-dir "$out/runs" --run-id target --no-report >&2
node --import tsx bench/target-agreement.ts --native "$native" --target "$out/runs/target" --pair fixed=fixed --pair virtual=virtual
