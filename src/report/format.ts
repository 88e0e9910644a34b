/**
 * Locale-independent number formatting and Markdown escaping. Every string that comes from a run
 * (messages, names, versions) goes through `esc`; generated Markdown is marked `Raw`.
 */
import type { Agg } from '../types/run.ts';

/** Markdown that this module's callers generated themselves (trusted). */
export class Raw {
  constructor(readonly md: string) {}
}
export const raw = (md: string): Raw => new Raw(md);

/** Escape a plain string for inline Markdown (and, through markdown-it with html:false, HTML). */
export function esc(s: string): string {
  const flat = s.replace(/[\r\n\t]+/g, ' ');
  let out = flat.replace(/[\\`*_[\]<>#|~&]/g, (c) => `\\${c}`);
  // a value at the start of a line must not become a list item ("- x", "+ x", "1. x", "1) x")
  out = out.replace(/^([-+])(?=\s|$)/, '\\$1').replace(/^(\d+)([.)])(?=\s|$)/, '$1\\$2');
  return out;
}

/** Fill `{{name}}` placeholders; strings are escaped, Raw inserted as is; unknown names throw. */
export function fill(template: string, values: Readonly<Record<string, string | Raw>>, where: string): string {
  return template.replace(/\{\{([A-Za-z0-9_.:-]+)\}\}/g, (_, name: string) => {
    const v = values[name];
    if (v === undefined) throw new Error(`template ${where}: no value for {{${name}}}`);
    return v instanceof Raw ? v.md : esc(v);
  });
}

function group(intPart: string): string {
  return intPart.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}
/** Fixed decimals with thousands separators; '—' for null. */
export function num(x: number | null | undefined, decimals = 2): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const s = Math.abs(x).toFixed(decimals);
  const [i, f] = s.split('.');
  const neg = x < 0 && Number(s) !== 0 ? '−' : '';
  return `${neg}${group(i ?? '0')}${f !== undefined ? `.${f}` : ''}`;
}
export const int = (x: number | null | undefined): string => num(x, 0);
/** ms with precision that suits the magnitude */
export function ms(x: number | null | undefined): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  const a = Math.abs(x);
  return `${num(x, a < 10 ? 3 : a < 100 ? 2 : 1)} ms`;
}
export const rps = (x: number | null | undefined): string => (x === null || x === undefined ? '—' : `${num(x, 2)} req/s`);
export const pct = (x: number | null | undefined, d = 1): string => (x === null || x === undefined || !Number.isFinite(x) ? '—' : `${num(x, d)} %`);
export const mib = (bytes: number | null | undefined): string => (bytes === null || bytes === undefined ? '—' : `${num(bytes / (1024 * 1024), 1)} MiB`);
export function signed(x: number | null | undefined, d = 2): string {
  if (x === null || x === undefined || !Number.isFinite(x)) return '—';
  return `${x > 0 ? '+' : ''}${num(x, d)}`;
}

/** median with spread: "1.23 (1.20–1.25, n=3)" using the given formatter */
export function aggText(a: Agg, f: (x: number | null) => string): string {
  if (a.median === null) return '—';
  if (a.n <= 1 || a.min === a.max) return `${f(a.median)}${a.n > 1 ? ` (n=${a.n})` : ''}`;
  return `${f(a.median)} (${f(a.min)}–${f(a.max)}, n=${a.n})`;
}

/**
 * A Raw Markdown fragment made safe for a table cell: every `|` gets a backslash. A GFM table row is
 * split at unescaped pipes before inline parsing, even inside a code span, and `\|` then becomes
 * `|` again (markdown-it's escapedSplit, GFM spec "Tables"), so this is exact for text (`\|` from esc
 * becomes `\\|`, shown as `|`) and for code spans (`a|b` becomes `a\|b`, shown as `a|b`) alike.
 */
export function tableCell(md: string): string {
  return md.replace(/\|/g, '\\|');
}

/** Markdown table: header and cells escaped unless Raw; pipes in Raw cells are escaped for the table (tableCell). */
export function table(headers: readonly (string | Raw)[], rows: readonly (readonly (string | Raw)[])[], align?: readonly ('l' | 'r')[]): Raw {
  const cell = (v: string | Raw) => (v instanceof Raw ? tableCell(v.md) : esc(v));
  const sep = headers.map((_, i) => ((align?.[i] ?? 'l') === 'r' ? '---:' : '---'));
  const lines = [
    `| ${headers.map(cell).join(' | ')} |`,
    `| ${sep.join(' | ')} |`,
    ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`),
  ];
  return raw(lines.join('\n'));
}

export const code = (s: string): Raw => raw(`\`${s.replace(/`/g, '')}\``);
