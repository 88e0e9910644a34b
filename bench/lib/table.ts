/** A plain fixed-width text table; returns the string (the caller prints). */
export function table(headers: string[], rows: (string | number | null)[][]): string {
  const cells = rows.map((r) => r.map((v) => (v === null ? '—' : typeof v === 'number' ? fmt(v) : v)));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]) => r.map((v, i) => v.padStart(widths[i] ?? 0)).join('  ');
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  if (Number.isInteger(v)) return String(v);
  return Math.abs(v) >= 100 ? v.toFixed(1) : v.toFixed(2);
}
