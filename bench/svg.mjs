// Hand-written SVG for the bench report: no dependencies. Two panels side by side:
// left, hook cold-start latency per variant (box plot over a jittered strip of every run);
// right, per-command time against command size, log-log, with a slope-1 (linear) guide.
import { pct } from './lib.mjs';

const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);
const COLORS = ['#6b7280', '#2563eb', '#f59e0b', '#dc2626', '#059669', '#7c3aed'];

function niceTicks(lo, hi, n = 5) {
  const span = hi - lo;
  const step0 = span / n;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => span / s <= n) ?? 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + 1e-9; v += step) out.push(+v.toFixed(6));
  return out;
}

/** rows: [{ label, values: [ms...], note }] — first row is the baseline. */
function latencyPanel(rows, x0, y0, w, h, title) {
  const parts = [];
  const left = 150;
  const plotW = w - left - 20;
  const all = rows.flatMap((r) => r.values);
  const hiV = Math.min(Math.max(...all), pct(all, 99) * 1.15);
  const loV = 0;
  const sx = (v) => x0 + left + ((Math.min(v, hiV) - loV) / (hiV - loV)) * plotW;
  const rowH = (h - 70) / rows.length;
  parts.push(`<text x="${x0 + w / 2}" y="${y0 + 18}" class="title">${esc(title)}</text>`);
  const top = y0 + 34;
  const base = rows[0] ? pct(rows[0].values, 50) : null;
  for (const t of niceTicks(loV, hiV, 6)) {
    parts.push(`<line x1="${sx(t)}" y1="${top}" x2="${sx(t)}" y2="${top + rowH * rows.length}" class="grid"/>`);
    parts.push(`<text x="${sx(t)}" y="${top + rowH * rows.length + 14}" class="tick" text-anchor="middle">${t}</text>`);
  }
  parts.push(`<text x="${x0 + left + plotW / 2}" y="${top + rowH * rows.length + 30}" class="axis" text-anchor="middle">wall time per process, ms (runs beyond the axis are drawn at its edge)</text>`);
  if (base) {
    for (const [k, dash] of [[1, ''], [1.15, '4 3'], [3, '2 3']]) {
      if (base * k > hiV) continue;
      parts.push(`<line x1="${sx(base * k)}" y1="${top - 4}" x2="${sx(base * k)}" y2="${top + rowH * rows.length}" class="ref" stroke-dasharray="${dash}"/>`);
      parts.push(`<text x="${sx(base * k) + 2}" y="${top - 6}" class="tick">${k === 1 ? 'node -e 0' : `${k}×`}</text>`);
    }
  }
  rows.forEach((r, i) => {
    const cy = top + rowH * i + rowH / 2;
    const color = COLORS[i % COLORS.length];
    parts.push(`<text x="${x0 + left - 8}" y="${cy - 2}" class="label" text-anchor="end">${esc(r.label)}</text>`);
    if (r.note) parts.push(`<text x="${x0 + left - 8}" y="${cy + 11}" class="note" text-anchor="end">${esc(r.note)}</text>`);
    if (r.values.length === 0) {
      parts.push(`<text x="${x0 + left + 6}" y="${cy + 4}" class="note">not measured</text>`);
      return;
    }
    // strip: every run, deterministic jitter
    r.values.forEach((v, j) => {
      const jy = cy + (((j * 0.618034) % 1) - 0.5) * rowH * 0.6;
      parts.push(`<circle cx="${sx(v).toFixed(1)}" cy="${jy.toFixed(1)}" r="1.8" fill="${color}" fill-opacity="0.35"/>`);
    });
    const [p10, q1, med, q3, p90] = [10, 25, 50, 75, 90].map((p) => pct(r.values, p));
    const bh = rowH * 0.5;
    parts.push(`<line x1="${sx(p10)}" y1="${cy}" x2="${sx(q1)}" y2="${cy}" stroke="${color}" stroke-width="1.5"/>`);
    parts.push(`<line x1="${sx(q3)}" y1="${cy}" x2="${sx(p90)}" y2="${cy}" stroke="${color}" stroke-width="1.5"/>`);
    parts.push(`<rect x="${sx(q1)}" y="${cy - bh / 2}" width="${Math.max(1, sx(q3) - sx(q1))}" height="${bh}" fill="${color}" fill-opacity="0.15" stroke="${color}" stroke-width="1.5"/>`);
    parts.push(`<line x1="${sx(med)}" y1="${cy - bh / 2}" x2="${sx(med)}" y2="${cy + bh / 2}" stroke="${color}" stroke-width="3"/>`);
    const ratio = base ? ` (${(med / base).toFixed(2)}×)` : '';
    parts.push(`<text x="${Math.min(sx(med) + 4, x0 + w - 60)}" y="${cy - bh / 2 - 3}" class="note">${med.toFixed(0)} ms${i > 0 ? ratio : ''}</text>`);
  });
  parts.push(`<text x="${x0 + left}" y="${y0 + h - 6}" class="note">box: p25–p75, bar: median, whiskers: p10–p90, dots: every run. Baseline and subjects interleaved in one run.</text>`);
  return parts.join('\n');
}

/** series: [{ label, points: [[bytes, ms]...] }] */
function growthPanel(series, x0, y0, w, h, title) {
  const parts = [];
  const left = 60;
  const bottom = 50;
  const plotW = w - left - 20;
  const plotH = h - bottom - 40;
  const pts = series.flatMap((s) => s.points).filter(([, y]) => y > 0);
  if (pts.length === 0) return `<text x="${x0 + 20}" y="${y0 + 40}" class="note">growth not measured</text>`;
  const lx = [Math.floor(Math.log10(Math.min(...pts.map((p) => p[0])))), Math.ceil(Math.log10(Math.max(...pts.map((p) => p[0]))))];
  const ly = [Math.floor(Math.log10(Math.min(...pts.map((p) => p[1])))), Math.ceil(Math.log10(Math.max(...pts.map((p) => p[1]))))];
  if (ly[0] === ly[1]) ly[1]++;
  const top = y0 + 34;
  const sx = (v) => x0 + left + ((Math.log10(v) - lx[0]) / (lx[1] - lx[0])) * plotW;
  const sy = (v) => top + plotH - ((Math.log10(v) - ly[0]) / (ly[1] - ly[0])) * plotH;
  parts.push(`<text x="${x0 + w / 2}" y="${y0 + 18}" class="title">${esc(title)}</text>`);
  const sizeLabel = (b) => (b >= 1 << 20 ? `${b / (1 << 20)} MiB` : b >= 1024 ? `${b / 1024} KiB` : `${b} B`);
  for (let e = lx[0]; e <= lx[1]; e++) {
    const v = 10 ** e;
    parts.push(`<line x1="${sx(v)}" y1="${top}" x2="${sx(v)}" y2="${top + plotH}" class="grid"/>`);
    parts.push(`<text x="${sx(v)}" y="${top + plotH + 14}" class="tick" text-anchor="middle">${e >= 6 ? `${10 ** (e - 6)} MB` : e >= 3 ? `${10 ** (e - 3)} kB` : `${v} B`}</text>`);
  }
  for (let e = ly[0]; e <= ly[1]; e++) {
    const v = 10 ** e;
    parts.push(`<line x1="${x0 + left}" y1="${sy(v)}" x2="${x0 + left + plotW}" y2="${sy(v)}" class="grid"/>`);
    parts.push(`<text x="${x0 + left - 4}" y="${sy(v) + 4}" class="tick" text-anchor="end">${v >= 1 ? v : v.toPrecision(1)}</text>`);
  }
  parts.push(`<text x="${x0 + left + plotW / 2}" y="${top + plotH + 32}" class="axis" text-anchor="middle">command size (log)</text>`);
  parts.push(`<text transform="translate(${x0 + 14},${top + plotH / 2}) rotate(-90)" class="axis" text-anchor="middle">ms per command (log)</text>`);
  // slope-1 guide through the first point of the first series
  const s0 = series[0]?.points[0];
  if (s0) {
    const xa = 10 ** lx[0];
    const xb = 10 ** lx[1];
    const ya = (s0[1] * xa) / s0[0];
    const yb = (s0[1] * xb) / s0[0];
    parts.push(`<line x1="${sx(xa)}" y1="${sy(ya)}" x2="${sx(xb)}" y2="${sy(yb)}" class="ref" stroke-dasharray="5 4"/>`);
    parts.push(`<text x="${x0 + left + 6}" y="${top + 12}" class="note">dashed: linear (slope 1) through the first point</text>`);
  }
  series.forEach((s, i) => {
    const color = COLORS[(i + 1) % COLORS.length];
    const p = s.points.filter(([, y]) => y > 0);
    parts.push(`<polyline fill="none" stroke="${color}" stroke-width="2" points="${p.map(([x, y]) => `${sx(x).toFixed(1)},${sy(y).toFixed(1)}`).join(' ')}"/>`);
    for (const [x, y] of p) parts.push(`<circle cx="${sx(x).toFixed(1)}" cy="${sy(y).toFixed(1)}" r="3" fill="${color}"><title>${esc(s.label)} ${sizeLabel(x)}: ${y.toFixed(3)} ms</title></circle>`);
    parts.push(`<rect x="${x0 + left + plotW - 190}" y="${top + plotH - 16 - 16 * (series.length - i)}" width="10" height="10" fill="${color}"/>`);
    parts.push(`<text x="${x0 + left + plotW - 176}" y="${top + plotH - 7 - 16 * (series.length - i)}" class="label">${esc(s.label)}</text>`);
  });
  return parts.join('\n');
}

export function chart({ latencyRows, growthSeries, subtitle }) {
  const W = 1200;
  const H = Math.max(420, 110 + latencyRows.length * 46);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, -apple-system, Segoe UI, sans-serif">
<style>
  .title { font-size: 14px; font-weight: 600; text-anchor: middle; fill: #111827; }
  .label { font-size: 12px; fill: #111827; }
  .note { font-size: 10px; fill: #4b5563; }
  .tick { font-size: 10px; fill: #4b5563; }
  .axis { font-size: 11px; fill: #374151; }
  .grid { stroke: #e5e7eb; stroke-width: 1; }
  .ref { stroke: #9ca3af; stroke-width: 1; }
</style>
<rect width="${W}" height="${H}" fill="#ffffff"/>
<text x="10" y="${H - 6}" class="note">${esc(subtitle)}</text>
${latencyPanel(latencyRows, 0, 0, 700, H - 14, 'Hook cold start: one process per tool call')}
${growthPanel(growthSeries, 700, 0, 500, Math.min(H - 14, 420), 'Time against command size (log-log)')}
</svg>
`;
}
