/**
 * The front page (issue 31 item 5): report/index.md and report/index.html list every report in the
 * folder — its answer line, its study (id and title), the host it ran on (CPU model, cores, JDK),
 * its date and links to the English and Chinese reports. README.md's Results section is the same
 * table (readmeResultsBlock, written by `npm run readme:results`), so the two cannot disagree.
 *
 * Input is each report/<id>/meta.json (ReportMeta, src/report/index.ts). Older meta.json files lack
 * the study title, the host and the answer; they are listed with "—" there (answer: the figures at
 * the highest level, as before) until the report is rendered again.
 */
import { readFile, readdir, access } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReportModel } from './model.ts';
import type { Study } from '../types/study.ts';
import { esc, int, ms, raw, rps, table, type Raw } from './format.ts';

/** The host a run measured on, as meta.json records it (from the manifest's `host` and `versions.jdk`). */
export interface MetaHost {
  cpuModel: string;
  cores: number;
  /** the SUT's JDK version, e.g. `25.0.3+9-LTS`; null when the run did not record it */
  jdk: string | null;
}

/**
 * What meta.json carries for the front page beyond the report's own fields: the study's title and
 * the host. One function so that other meta.json additions stay apart from it.
 */
export function frontPageMeta(model: Pick<ReportModel, 'study' | 'manifest'>): { studyTitle: string; host: MetaHost } {
  const h = model.manifest.host;
  return { studyTitle: model.study.title, host: { cpuModel: h.cpuModel, cores: h.cores, jdk: model.manifest.versions.jdk ?? null } };
}

/**
 * The study's first comparison at its highest common level, as meta.json records it: variant ids,
 * whole-run throughput (req/s) and E2E P95 (ms), medians of the repeats.
 */
export interface MetaHighest {
  concurrency: number;
  baseline: string;
  candidate: string;
  baselineRps: number | null;
  candidateRps: number | null;
  baselineE2eP95Ms: number | null;
  candidateE2eP95Ms: number | null;
}

/**
 * One report as the front page reads it: the fields of report/<id>/meta.json it uses (all but
 * runId optional, since older meta.json files lack some) and whether a Chinese copy exists.
 */
export interface FrontEntry {
  runId: string;
  study?: string;
  studyTitle?: string;
  status?: string;
  startedAt?: string;
  load?: 'closed-loop' | 'open-loop' | 'in-process';
  highest?: MetaHighest | null;
  gaps?: number;
  host?: MetaHost;
  /** the run's one-line answer (plain text, written by the answer block); absent in older meta.json */
  answer?: unknown;
  /** report/<id>/zh/index.html exists */
  zh?: boolean;
}

/**
 * The answer line of one report: meta.json's `answer` when it has one (plain text); else the
 * figures of the study's first comparison at its highest level (throughput and E2E P95, baseline →
 * candidate; the job time for an in-process run, whose request rate is no throughput); else "—".
 */
export function indexAnswerLine(m: FrontEntry): string {
  if (typeof m.answer === 'string' && m.answer.trim() !== '') return m.answer.trim();
  // a meta.json written before it named its comparison (no `baseline`) has no figures to show
  const h = m.highest && typeof m.highest.baseline === 'string' ? m.highest : null;
  const gaps = m.gaps ? `; ${m.gaps} gap(s) in the data, stated in the report` : '';
  if (!h) return `no comparison of two variants at a common level in this run: see the report${gaps}`;
  const pair = `${h.baseline} → ${h.candidate}`;
  if (m.load === 'in-process') return `${pair}: job time ${ms(h.baselineE2eP95Ms)} → ${ms(h.candidateE2eP95Ms)}${gaps}`;
  const level = m.load === 'open-loop' ? `${int(h.concurrency)} req/s offered` : `${int(h.concurrency)} concurrent clients`;
  return `highest level, ${level}: ${pair}: ${rps(h.baselineRps)} → ${rps(h.candidateRps)}, E2E P95 ${ms(h.baselineE2eP95Ms)} → ${ms(h.candidateE2eP95Ms)}${gaps}`;
}

/** `AMD EPYC, 2 cores, JDK 25.0.3+9-LTS`, or "—" when meta.json has no host */
function hostText(h: MetaHost | undefined): string {
  if (!h) return '—';
  return `${h.cpuModel}, ${int(h.cores)} core${h.cores === 1 ? '' : 's'}, JDK ${h.jdk ?? '?'}`;
}

/** `2026-12-01 20:51 UTC` from an ISO timestamp (UTC); the input as it is when it is not one */
function dateText(iso: string | undefined): string {
  const m = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(iso ?? '');
  return m ? `${m[1]} ${m[2]} UTC` : (iso ?? '—');
}

/** by study id, then run id (which starts with the run's date) */
function ordered(entries: readonly FrontEntry[]): FrontEntry[] {
  const key = (e: FrontEntry) => `${e.study ?? ''}\u0000${e.runId}`;
  return [...entries].sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
}

/**
 * The front page's table, one row per report.
 * @param entries the reports (any order; listed by study, then run id)
 * @param link `prefix` before `<id>/` (`''` from report/, `report/` from the repository root) and the
 *   file each row links to (`report.md` or `index.html`); the Chinese copy is linked as `zh/<file>`
 */
export function frontPageTable(entries: readonly FrontEntry[], link: { prefix: string; target: 'report.md' | 'index.html' }): Raw {
  const rows = ordered(entries).map((m) => {
    const dir = `${link.prefix}${encodeURIComponent(m.runId)}`;
    const status = m.status && m.status !== 'complete' ? ` (${esc(m.status)})` : '';
    const zh = m.zh ? ` · [中文](${dir}/zh/${link.target})` : '';
    return [
      raw(`[${esc(m.runId)}](${dir}/${link.target})${zh}${status}`),
      indexAnswerLine(m),
      m.study ? `${m.study}${m.studyTitle ? `: ${m.studyTitle}` : ''}` : '—',
      hostText(m.host),
      dateText(m.startedAt),
    ];
  });
  return table(['report', 'answer', 'study', 'host', 'run started'], rows);
}

/** The README's Results block: the front page's table (frontPageTable) with links from the repository root. */
export function readmeResultsBlock(entries: readonly FrontEntry[]): string {
  return frontPageTable(entries, { prefix: 'report/', target: 'report.md' }).md;
}

/**
 * Every report under `outRoot`: each folder with a meta.json, with whether it has a Chinese copy.
 * Folders without a readable meta.json are not reports and are skipped.
 * @param studies the registered studies: a meta.json written before it carried the study's title
 *   gets the title of the study with its id
 */
export async function readFrontEntries(outRoot: string, studies: readonly Pick<Study, 'id' | 'title'>[] = []): Promise<FrontEntry[]> {
  const dirs = await readdir(outRoot, { withFileTypes: true }).catch(() => []);
  const out: FrontEntry[] = [];
  for (const id of dirs.filter((x) => x.isDirectory()).map((x) => x.name).sort()) {
    let meta: FrontEntry;
    try {
      meta = JSON.parse(await readFile(join(outRoot, id, 'meta.json'), 'utf8')) as FrontEntry;
    } catch {
      continue;
    }
    const zh = await access(join(outRoot, id, 'zh', 'index.html')).then(() => true, () => false);
    const studyTitle = meta.studyTitle ?? studies.find((s) => s.id === meta.study)?.title;
    out.push({ ...meta, ...(studyTitle !== undefined ? { studyTitle } : {}), zh });
  }
  return out;
}

export const RESULTS_START = '<!-- results:start (generated by npm run readme:results; do not edit) -->';
export const RESULTS_END = '<!-- results:end -->';

/** Replace the text between README.md's Results markers with `block`; throws if the markers are missing. */
export function replaceResults(readme: string, block: string): string {
  const a = readme.indexOf(RESULTS_START);
  const b = readme.indexOf(RESULTS_END);
  if (a < 0 || b < a) throw new Error('README.md has no results markers');
  return readme.slice(0, a + RESULTS_START.length) + '\n' + block + '\n' + readme.slice(b);
}
