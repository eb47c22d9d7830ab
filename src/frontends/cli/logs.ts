/** `bashguard logs [--since DURATION|ISO] [--json]`: the decision log (src/layers/log/decisions.ts). */
import { UsageError, type IO } from '../io.js';
import { parseSince, readDecisions } from '../../layers/log/decisions.js';
import { visible } from './format.js';

export function runLogs(io: IO, opts: { since?: string; json?: boolean }): number {
  let cutoff: number | null = null;
  if (opts.since !== undefined) {
    cutoff = parseSince(opts.since, Date.now());
    if (cutoff === null) throw new UsageError(`--since takes a duration (30m, 2h, 7d) or an ISO time (2026-11-23T10:00Z), got ${JSON.stringify(opts.since)}`);
  }
  const { file, records, skipped } = readDecisions(io.env);
  if (!file) throw new UsageError('neither XDG_STATE_HOME nor HOME is set; no decision log');
  const shown = cutoff === null ? records : records.filter((r) => Date.parse(r.time) >= cutoff!);
  if (opts.json) {
    for (const r of shown) io.stdout(JSON.stringify(r) + '\n');
  } else {
    if (shown.length === 0) io.stdout(`no decisions logged${cutoff === null ? '' : ' in that time'} (${file})\n`);
    for (const r of shown) {
      const who = [r.entrypoint ? `entrypoint=${r.entrypoint}` : null, r.attended !== null && r.attended !== undefined ? `attended=${r.attended}` : null, r.session ? `session=${r.session}` : null].filter(Boolean).join(' ');
      io.stdout(`${r.time}  ${r.decision.padEnd(4)}  ${(r.tool ?? '-').padEnd(5)}  ${r.rules.join(',') || '-'}  ${r.cwd ?? '-'}${who ? `  (${who})` : ''}\n    ${oneLine(r.command ?? r.path ?? '')}\n    ${oneLine(r.reason)}\n`);
    }
  }
  if (skipped > 0) io.stderr(`bashguard: ${skipped} line(s) of ${file} are not decision records; skipped\n`);
  return 0;
}

function oneLine(s: string): string {
  const t = visible(s.replace(/\s*\n\s*/g, ' ⏎ '));
  return t.length > 300 ? t.slice(0, 297) + '...' : t;
}
