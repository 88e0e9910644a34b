/**
 * Markdown → self-contained HTML page (inline CSS, inline SVG, no external URL). markdown-it runs
 * with html: false, so nothing from the run can inject markup; the trusted chart SVGs go in through
 * the image rule, which only accepts `figures/<name>.svg` names this report rendered itself.
 */
import MarkdownIt from 'markdown-it';

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The one markdown-it factory of the report. */
export function markdown() {
  return new MarkdownIt({ html: false, linkify: false, typographer: false });
}

const CSS = `
:root { color-scheme: light; }
* { box-sizing: border-box; }
body { margin: 0; background: #fafafa; color: #1f2328; font: 15px/1.55 -apple-system, "Segoe UI", Helvetica, Arial, "Noto Sans CJK SC", "PingFang SC", "Microsoft YaHei", sans-serif; }
main { max-width: 1040px; margin: 0 auto; padding: 24px 28px 64px; background: #fff; }
h1 { font-size: 26px; line-height: 1.25; margin: 8px 0 16px; }
h2 { font-size: 21px; margin: 36px 0 10px; padding-bottom: 4px; border-bottom: 1px solid #d0d7de; }
h3 { font-size: 17px; margin: 24px 0 8px; }
blockquote { margin: 12px 0; padding: 8px 14px; background: #fff8c5; border-left: 4px solid #d4a72c; }
blockquote p { margin: 0; }
table { display: block; overflow-x: auto; border-collapse: collapse; margin: 12px 0; font-size: 13px; max-width: 100%; }
th, td { border: 1px solid #d0d7de; padding: 4px 8px; vertical-align: top; }
th { background: #f6f8fa; text-align: left; }
td[style*="right"], th[style*="right"] { font-variant-numeric: tabular-nums; white-space: nowrap; }
tr:nth-child(even) td { background: #fbfbfc; }
code { font: 12.5px/1.4 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; background: #f2f4f7; padding: 1px 4px; border-radius: 3px; }
figure.chart { margin: 18px 0; padding: 8px; border: 1px solid #e5e7eb; border-radius: 6px; overflow-x: auto; }
figure.chart svg { display: block; max-width: 100%; height: auto; }
strong { color: #111; }
`;

/**
 * @param md the report Markdown (every run string already escaped)
 * @param figures trusted SVG by figure name (from charts.renderSvg)
 */
export function renderHtml(md: string, figures: ReadonlyMap<string, string>, page: { lang: 'en' | 'zh'; title: string }): string {
  const mdi = markdown();
  const fallback = mdi.renderer.rules.image;
  mdi.renderer.rules.image = (tokens, idx, options, env, self) => {
    const tok = tokens[idx];
    const src = String(tok?.attrGet('src') ?? '');
    const m = /^figures\/([a-z0-9-]+)\.svg$/.exec(src);
    const svg = m ? figures.get(String(m[1])) : undefined;
    if (tok && svg !== undefined) {
      // the chart draws its own title, so no <figcaption> repeating it; the alt text labels the figure
      const label = escapeHtml(tok.content);
      return `<figure class="chart" data-figure="${m?.[1] ?? ''}" aria-label="${label}">${svg}</figure>`;
    }
    return fallback ? fallback(tokens, idx, options, env, self) : self.renderToken(tokens, idx, options);
  };
  const body = mdi.render(md).replace(/<p>(<figure class="chart"[\s\S]*?<\/figure>)<\/p>/g, '$1');
  return htmlPage(body, page);
}

export function htmlPage(body: string, page: { lang: 'en' | 'zh'; title: string }): string {
  return `<!doctype html>
<html lang="${page.lang === 'zh' ? 'zh-CN' : 'en'}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:">
<title>${escapeHtml(page.title)}</title>
<style>${CSS}</style>
</head>
<body>
<main>
${body}</main>
</body>
</html>
`;
}
