/** Terminal and JSON formatting of analyses and verdicts for `check` and `explain`. */
import type { AnalysisResult } from '../../engine/analyze.js';
import type { Command, Redirect, Word, WordPart } from '../../engine/syntax/ir.js';
import type { Verdict, Finding } from '../../policy/policy.js';
import type { Effect } from '../../engine/effects/types.js';
import { displayPath } from '../../engine/shell/paths.js';

export { style, type Style } from '../style.js';
import type { Style } from '../style.js';

/**
 * Text for a terminal with the input's control characters made visible: an echoed command or path
 * can hold escape sequences (clearing the screen, moving the cursor, rewriting the line with `\r`)
 * or bidirectional overrides that would make the printed text differ from what runs. C0 and C1
 * controls (but newline and tab), DEL and the bidi controls are written as `\xHH` / `\u{HHHH}`;
 * the colours the style below emits (bold, dim, red, green, yellow, reset: none hides or moves
 * text) are kept. Invalid UTF-8 in the input has already become U+FFFD when it was decoded.
 */
export function visible(text: string): string {
  return text.replace(/\x1b\[(?:0|1|2|31|32|33)m|[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, (c) =>
    c.length > 1 ? c : c.charCodeAt(0) <= 0xff ? `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}` : `\\u{${c.charCodeAt(0).toString(16)}}`,
  );
}


export function formatDecision(decision: string, s: Style): string {
  return decision === 'deny' ? s.red(s.bold('DENY')) : decision === 'ask' ? s.yellow(s.bold('ASK')) : decision === 'sandbox' ? s.yellow(s.bold('SANDBOX')) : s.green(s.bold('ALLOW'));
}

export function formatFinding(f: Finding, s: Style, source?: string): string {
  const lines = [`  ${f.decision === 'deny' ? s.red(f.rule) : f.decision === 'ask' ? s.yellow(f.rule) : s.dim(f.rule)} ${f.name} (${f.severity}, ${f.confidence}) at ${f.range.line}:${f.range.column}`, `    ${displayPath(f.message)}`];
  if (source) {
    const snippet = source.slice(f.range.start, f.range.end).split('\n')[0]!;
    if (snippet) lines.push(s.dim(`    > ${snippet.length > 100 ? snippet.slice(0, 97) + '...' : snippet}`));
  }
  for (const e of f.evidence) lines.push(s.dim(`      - ${displayPath(e.note)}`));
  return lines.join('\n');
}

export function formatVerdict(v: Verdict, s: Style, source?: string): string {
  const out = [formatDecision(v.decision, s)];
  for (const f of v.findings) out.push(formatFinding(f, s, source));
  return out.join('\n');
}

function partText(p: WordPart): string {
  switch (p.kind) {
    case 'text':
      return p.quoting === 'none' ? p.value : `${p.quoting}:${JSON.stringify(p.value)}`;
    case 'tilde':
      return `~${p.user}`;
    case 'param':
      return `param:${p.text}`;
    case 'command-sub':
      return `cmdsub:${p.text}`;
    case 'process-sub':
      return `procsub:${p.text}`;
    case 'arith':
      return `arith:${p.text}`;
    case 'unknown':
      return `UNKNOWN(${p.reason}):${p.text}`;
  }
}

export function wordParts(w: Word): string {
  return w.parts.map(partText).join(' + ');
}

function redirectText(r: Redirect): string {
  if (r.heredoc) return `${r.fd ?? ''}${r.op}${r.heredoc.quoted ? `'${r.heredoc.delimiter}'` : r.heredoc.delimiter} (heredoc, ${r.heredoc.body.text.length} chars${r.heredoc.quoted ? ', literal' : ''})`;
  return `${r.fd ?? ''}${r.op} ${r.target ? r.target.text : ''}`;
}

/** The IR as an indented outline. */
export function formatIR(cmd: Command, depth = 0): string[] {
  const pad = '  '.repeat(depth);
  const at = `${cmd.range.line}:${cmd.range.column}`;
  switch (cmd.kind) {
    case 'simple': {
      const lines = [`${pad}simple ${at}: ${cmd.words.map((w) => w.text).join(' ') || '(assignments only)'}`];
      for (const a of cmd.assigns) lines.push(`${pad}  assign ${a.name}${a.append ? '+=' : '='}${a.value ? wordParts(a.value) : a.unknownValue ? '(array)' : "''"}`);
      for (const a of cmd.declarations) lines.push(`${pad}  declare ${a.name}=${a.value ? wordParts(a.value) : ''}`);
      cmd.words.forEach((w, i) => lines.push(`${pad}  ${i === 0 ? 'name' : 'arg '} ${wordParts(w)}`));
      for (const r of cmd.redirects) lines.push(`${pad}  redirect ${redirectText(r)}`);
      return lines;
    }
    case 'pipeline':
      return [`${pad}pipeline${cmd.negated ? ' (negated)' : ''} ${at}`, ...cmd.commands.flatMap((c) => formatIR(c, depth + 1))];
    case 'and-or':
      return [`${pad}${cmd.op} ${at}`, ...formatIR(cmd.left, depth + 1), ...formatIR(cmd.right, depth + 1)];
    case 'sequence':
      return cmd.items.flatMap((i) => (i.background ? [`${pad}background:`, ...formatIR(i.command, depth + 1)] : formatIR(i.command, depth)));
    case 'subshell':
    case 'group':
      return [`${pad}${cmd.kind} ${at}${cmd.redirects.map((r) => ' ' + redirectText(r)).join('')}`, ...formatIR(cmd.body, depth + 1)];
    case 'if':
      return [`${pad}if ${at}`, ...cmd.branches.flatMap((b) => [`${pad}  condition:`, ...formatIR(b.condition, depth + 2), `${pad}  then:`, ...formatIR(b.body, depth + 2)]), ...(cmd.elseBody ? [`${pad}  else:`, ...formatIR(cmd.elseBody, depth + 2)] : [])];
    case 'case':
      return [`${pad}case ${cmd.subject.text} ${at}`, ...cmd.items.flatMap((i) => [`${pad}  ${i.patterns.map((p) => p.text).join('|')})`, ...formatIR(i.body, depth + 2)])];
    case 'loop':
      return [`${pad}${cmd.loop}${cmd.variable ? ' ' + cmd.variable : ''}${cmd.values ? ' in ' + cmd.values.map((v) => v.text).join(' ') : ''} ${at}`, ...(cmd.condition ? [`${pad}  condition:`, ...formatIR(cmd.condition, depth + 2)] : []), `${pad}  body:`, ...formatIR(cmd.body, depth + 2)];
    case 'function':
      return [`${pad}function ${cmd.name} ${at}`, ...formatIR(cmd.body, depth + 1)];
    case 'test':
      return [`${pad}test ${at}${cmd.words.length ? ' expansions: ' + cmd.words.map((w) => w.text).join(' ') : ''}`];
    case 'unknown':
      return [`${pad}CANNOT ANALYZE ${at}: ${cmd.reason}: ${JSON.stringify(cmd.text.slice(0, 80))}`];
  }
}

export function formatEffect(e: Effect): string {
  const at = `${e.range.line}:${e.range.column}`;
  const via = e.via.length ? ` via ${e.via.join(' > ')}` : '';
  switch (e.kind) {
    case 'write':
      // The op names the kind of write (write, append, create, delete, move, ...): no `write` prefix.
      return `${e.op} ${displayPath(e.path)}${e.subtree ? ' (and below)' : ''} [${e.confidence}] by ${e.command}${via} at ${at}`;
    case 'git':
      return `git ${e.subcommand ?? ''} (${e.access}) in ${displayPath(e.dir)}${e.gitDir ? ` git-dir=${displayPath(e.gitDir)}` : ''}${e.workTree ? ` work-tree=${displayPath(e.workTree)}` : ''} [${e.confidence}]${via} at ${at}`;
    case 'problem':
      return `CANNOT ANALYZE (${e.category}) ${e.reason}${via} at ${at}`;
  }
}

export function formatExplain(a: AnalysisResult, v: Verdict | null, s: Style, context: string): string {
  const out: string[] = [s.bold('context'), `  ${context}`, `  parser: ${a.backend}`];
  out.push(s.bold('syntax'));
  if (a.script) out.push(...formatIR(a.script.body, 1));
  else out.push('  (no syntax tree: see problems)');
  out.push(s.bold('commands (words expanded as far as static analysis allows)'));
  for (const c of a.commands) out.push(`  ${c.range.line}:${c.range.column} [cwd ${c.cwd ? c.cwd.join(' | ') : 'unknown'}]${c.via.length ? ` via ${c.via.join(' > ')}` : ''} ${c.argv.map((x) => JSON.stringify(x)).join(' ')}`);
  out.push(s.bold('cwd timeline'));
  if (a.timeline.length === 0) out.push('  (the cwd never changes)');
  for (const t of a.timeline) out.push(`  ${t.range.line}:${t.range.column} ${t.command} -> ${t.cwd ? t.cwd.join(' | ') : 'unknown'} [${t.confidence}]`);
  out.push(s.bold('effects'));
  if (a.effects.length === 0) out.push('  (none)');
  for (const e of a.effects) {
    out.push(`  ${formatEffect(e)}`);
    if (e.kind !== 'problem') for (const ev of e.evidence) out.push(s.dim(`      - ${displayPath(ev.note)}`));
  }
  if (v) {
    out.push(s.bold('decision'));
    out.push('  ' + formatVerdict(v, s).split('\n').join('\n  '));
  }
  return out.join('\n') + '\n';
}
