/**
 * Node's spec reporter, plus the slowest test files and tests of the tier, printed just before the
 * runner's own summary (the last lines of the output when every test passed; after a failure the
 * spec reporter lists the failed tests again below the summary, as it does on its own).
 *
 *   node --test --test-reporter=./test/support/slowest-reporter.mjs …
 *
 * Top-level tests (nesting 0) are ranked by their duration (`test:pass`/`test:fail` `details.duration_ms`);
 * a file's time is the sum of its top-level tests. VTBENCH_SLOWEST=N prints N of each (default 8).
 */
import { spec as Spec } from 'node:test/reporters';
import { relative } from 'node:path';

const SHOW = Number(process.env.VTBENCH_SLOWEST ?? 8);

export default async function* slowest(source) {
  const spec = new Spec();
  const out = () => {
    let s = '';
    for (let chunk = spec.read(); chunk !== null; chunk = spec.read()) s += chunk;
    return s;
  };
  const tests = [];
  const held = [];
  for await (const ev of source) {
    if (ev.type === 'test:diagnostic' && ev.data.nesting === 0) {
      held.push(ev); // the run's summary ("tests 12", "pass 12", …): after the ranking
      continue;
    }
    if ((ev.type === 'test:pass' || ev.type === 'test:fail') && ev.data.nesting === 0 && ev.data.details?.duration_ms !== undefined) {
      tests.push({ name: ev.data.name, file: ev.data.file ? relative(process.cwd(), ev.data.file) : '?', ms: ev.data.details.duration_ms });
    }
    spec.write(ev);
    const s = out();
    if (s) yield s;
  }
  if (tests.length > 0 && SHOW > 0) {
    const byFile = new Map();
    for (const t of tests) byFile.set(t.file, (byFile.get(t.file) ?? 0) + t.ms);
    const sec = (ms) => `${(ms / 1000).toFixed(1).padStart(7)} s`;
    let s = `\nslowest files of this tier (of ${byFile.size}):\n`;
    for (const [f, ms] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, SHOW)) s += `${sec(ms)}  ${f}\n`;
    s += `slowest tests (of ${tests.length}):\n`;
    for (const t of [...tests].sort((a, b) => b.ms - a.ms).slice(0, SHOW)) s += `${sec(t.ms)}  ${t.name.slice(0, 110)}  (${t.file})\n`;
    yield s + '\n';
  }
  for (const ev of held) spec.write(ev);
  spec.end(); // the spec reporter's flush lists the failed tests again, then its summary is complete
  await new Promise((r) => setImmediate(r));
  const s = out();
  if (s) yield s;
}
