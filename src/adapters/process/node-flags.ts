/**
 * Node/V8 flags of the mock LLM's process, wherever vtbench starts it: the run's mock
 * (src/adapters/process/mock-process.ts startMockProcess) and the benches' mock children
 * (bench/lib/mock-child.ts, bench/mock.ts); `npm run mock` (package.json) spells the same flag out.
 * The mock prints the flags it runs with in its start line (`node=[…]`), which a run keeps in
 * `logs/mock.log`.
 *
 * `--max-semi-space-size=4` (MiB; V8's default grows to 16 on 64-bit): V8 collects the young
 * generation by copying its live objects, and a held request's objects stay live until it is
 * answered (about 2.5 KB of heap per held request here: Node's IncomingMessage, ServerResponse and
 * their buffers, the mock's own HeldAnswer), so a scavenge's pause grows with the semi-space it
 * copies from. `npm run bench:mock` (10,000 requests held for 1 s, 2 cores, issue 20; 4 rounds
 * each, same host, same hour): the longest main-thread stop in the answer window 13.5–23.6 ms with
 * the default, 5.6–11.7 ms with 4 MiB; the share of answers those stops alone make later than 5 ms
 * 2.6–4.9% against 0.1–1.7%; the mock's lateness P99 per round 11.6–54.6 ms against 6.1–16.9 ms,
 * peak RSS about 25 MiB lower and CPU per answer unchanged. 2 MiB (2 rounds) gave more stops,
 * not shorter ones (up to 10.5 ms), and 8 MiB stops up to 14.2 ms.
 */
export const MOCK_NODE_FLAGS: readonly string[] = Object.freeze(['--max-semi-space-size=4']);

/** The V8/Node flags this process was started with (`process.execArgv` without the module loader's `--import`/`--require` and their values). */
export function nodeFlagsOf(execArgv: readonly string[] = process.execArgv): string[] {
  const out: string[] = [];
  for (let i = 0; i < execArgv.length; i++) {
    const a = execArgv[i] as string;
    if (a === '--import' || a === '--require' || a === '-r' || a === '--loader') {
      i++; // its value
      continue;
    }
    if (a.startsWith('--import=') || a.startsWith('--require=') || a.startsWith('--loader=')) continue;
    out.push(a);
  }
  return out;
}
