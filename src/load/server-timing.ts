/**
 * Parser of the `Server-Timing` response header (W3C Server Timing):
 *   `queue;dur=1.5, exec;dur=100.25`, `cache;desc="hit, warm";dur=0.3`, `miss`
 * Returns name -> dur (ms). Entries without a valid `dur` are left out (they carry no duration,
 * and "not computable" is absent, never 0); for a repeated name the first entry wins. Parameter
 * names are case-insensitive; quoted values (with commas, semicolons or escapes) are skipped over
 * correctly. Never throws.
 */
export function parseServerTiming(header: string | readonly string[] | null | undefined): Record<string, number> {
  const out: Record<string, number> = {};
  if (header == null) return out;
  const text = typeof header === 'string' ? header : header.join(',');
  const len = text.length;
  let i = 0;
  while (i < len) {
    // metric name: up to ';' or ','
    let j = i;
    while (j < len && text.charCodeAt(j) !== 59 /* ; */ && text.charCodeAt(j) !== 44 /* , */) j++;
    const name = text.slice(i, j).trim();
    let dur: number | undefined;
    i = j;
    // parameters
    while (i < len && text.charCodeAt(i) === 59) {
      i++;
      let k = i;
      while (k < len && text.charCodeAt(k) !== 61 /* = */ && text.charCodeAt(k) !== 59 && text.charCodeAt(k) !== 44) k++;
      const param = text.slice(i, k).trim().toLowerCase();
      let value = '';
      i = k;
      if (i < len && text.charCodeAt(i) === 61) {
        i++;
        while (i < len && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 9)) i++;
        if (i < len && text.charCodeAt(i) === 34 /* " */) {
          i++;
          let v = '';
          while (i < len && text.charCodeAt(i) !== 34) {
            if (text.charCodeAt(i) === 92 /* \ */ && i + 1 < len) i++;
            v += text[i];
            i++;
          }
          i++; // closing quote
          value = v;
          while (i < len && text.charCodeAt(i) !== 59 && text.charCodeAt(i) !== 44) i++;
        } else {
          let k2 = i;
          while (k2 < len && text.charCodeAt(k2) !== 59 && text.charCodeAt(k2) !== 44) k2++;
          value = text.slice(i, k2).trim();
          i = k2;
        }
      }
      if (param === 'dur' && dur === undefined && value !== '') {
        const d = Number(value);
        if (Number.isFinite(d)) dur = d;
      }
    }
    if (name !== '' && dur !== undefined && !(name in out)) out[name] = dur;
    // skip to the next entry
    while (i < len && text.charCodeAt(i) !== 44) i++;
    i++;
  }
  return out;
}
