/**
 * Run-to-run variation with and without CPU isolation (issue 33 item 2): reads finished runs and
 * prints, per isolation setting and cell (variant, level), the number of runs, the mean and the
 * coefficient of variation (sample standard deviation ÷ mean) of the whole-run throughput (req/s)
 * and of the E2E P95 (ms), plus the mean share of the machine's CPU other processes used
 * (cells' `otherCpuShare`, when recorded). Measures nothing itself: `bench/isolation-variance.sh`
 * makes the runs. Output: a Markdown table on stdout.
 *
 * Usage: node --import tsx bench/isolation-variance.ts <runDir>...
 * @throws Error when a folder has no manifest.json or summary.json (a run that did not finish)
 */
import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { mean, sampleStandardDeviation } from 'simple-statistics';

interface Point { iso: string; cell: string; rps: number | null; p95: number | null; other: number | null }

/** The points of one finished run: one per summary row (its median over repeats). */
function pointsOf(dir: string): Point[] {
  for (const f of ['manifest.json', 'summary.json']) if (!existsSync(join(dir, f))) throw new Error(`${dir}: no ${f} (not a finished run)`);
  const m = JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as { options: { cpuIsolation?: { sutCpus: string; harnessCpus: string } } };
  const s = JSON.parse(readFileSync(join(dir, 'summary.json'), 'utf8')) as { rows: { variant: string; concurrency: number; throughput: { wholeRunRps: { median: number | null } }; e2eMs: { p95: { median: number | null } } }[] };
  const iso = m.options.cpuIsolation ? `SUT on CPUs ${m.options.cpuIsolation.sutCpus}, harness on ${m.options.cpuIsolation.harnessCpus}` : 'off';
  const other = otherShares(dir);
  return s.rows.map((r) => ({ iso, cell: `${r.variant}-c${r.concurrency}`, rps: r.throughput.wholeRunRps.median, p95: r.e2eMs.p95.median, other: other.get(`${r.variant}-c${r.concurrency}`) ?? null }));
}

/** Mean `otherCpuShare` per (variant, level) over the run's cell files; empty when not recorded. */
function otherShares(dir: string): Map<string, number> {
  const acc = new Map<string, number[]>();
  const cells = join(dir, 'cells');
  for (const f of existsSync(cells) ? readdirSync(cells).filter((x) => /^[^.]+\.json$/.test(x)) : []) {
    const c = JSON.parse(readFileSync(join(cells, f), 'utf8')) as { variant: string; concurrency: number; otherCpuShare?: number | null };
    if (typeof c.otherCpuShare !== 'number') continue;
    const k = `${c.variant}-c${c.concurrency}`;
    acc.set(k, [...(acc.get(k) ?? []), c.otherCpuShare]);
  }
  return new Map([...acc].map(([k, v]) => [k, mean(v)]));
}

/** mean and coefficient of variation (%, null with fewer than 2 values) */
function stats(xs: readonly (number | null)[]): { n: number; mean: number | null; cvPct: number | null } {
  const v = xs.filter((x): x is number => x !== null);
  if (v.length === 0) return { n: 0, mean: null, cvPct: null };
  const m = mean(v);
  return { n: v.length, mean: m, cvPct: v.length < 2 || m === 0 ? null : (sampleStandardDeviation(v) / m) * 100 };
}

const fmt = (x: number | null, d: number): string => (x === null ? '—' : x.toFixed(d));

const dirs = process.argv.slice(2);
if (dirs.length === 0) { process.stderr.write('usage: node --import tsx bench/isolation-variance.ts <runDir>...\n'); process.exit(2); }
const points = dirs.flatMap(pointsOf);
const keys = [...new Set(points.map((p) => `${p.iso}\u0000${p.cell}`))];
const lines = ['| CPU isolation | cell | runs | throughput mean (req/s) | throughput CV | E2E P95 mean (ms) | E2E P95 CV | other processes\' CPU (mean share) |', '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |'];
for (const k of keys) {
  const [iso, cell] = k.split('\u0000') as [string, string];
  const ps = points.filter((p) => p.iso === iso && p.cell === cell);
  const r = stats(ps.map((p) => p.rps));
  const q = stats(ps.map((p) => p.p95));
  const o = stats(ps.map((p) => p.other));
  lines.push(`| ${iso} | ${cell} | ${r.n} | ${fmt(r.mean, 2)} | ${r.cvPct === null ? '—' : `${fmt(r.cvPct, 1)} %`} | ${fmt(q.mean, 1)} | ${q.cvPct === null ? '—' : `${fmt(q.cvPct, 1)} %`} | ${o.mean === null ? '—' : `${fmt(o.mean * 100, 1)} %`} |`);
}
process.stdout.write(lines.join('\n') + '\n');
