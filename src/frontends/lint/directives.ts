/**
 * Suppression comments for `bashguard lint`:
 *
 *   cmd   # bashguard disable=RULE[,RULE] -- reason     (this line)
 *   # bashguard disable=RULE[,RULE] -- reason           (the next code line, continuation lines included)
 *   # bashguard disable-file=RULE[,RULE] -- reason      (the whole file, wherever it appears)
 *
 * RULE is an id (BG1001, any case), a name (write-outside-worktree) or `all`. Comments are found
 * textually (a `#` at the start of a line or after whitespace), so a directive-looking line inside
 * a heredoc also counts: harmless, and unused ones show with --report-unused-directives.
 */
import { resolveRuleRef, type RuleId } from '../../policy/rules/catalog.js';
import type { Range } from '../../engine/syntax/ir.js';

export interface DirectiveRule {
  /** As written. */
  ref: string;
  /** Resolved id, 'all', or null when unknown. */
  id: RuleId | 'all' | null;
  /** Set when it suppressed at least one finding. */
  used: boolean;
  range: Range;
}

export interface Directive {
  kind: 'line' | 'file';
  /** Lines (1-based, inclusive) whose findings it covers; empty for file directives. */
  from: number;
  to: number;
  rules: DirectiveRule[];
  reason: string | null;
  range: Range;
}

export interface DirectiveProblem {
  message: string;
  range: Range;
}

const DIRECTIVE = /(^|\s)#\s*bashguard\s+([a-z-]+)(?:(=)(\S*))?(?:\s+--\s*(.*))?\s*$/i;
// Only comments that look like directives: `# bashguard checks this file` is prose, not a directive;
// `# bashguard WORD=...` is a directive attempt (a misspelt `disabel=` gets a warning, as ShellCheck does).
const MENTION = /(^|\s)#\s*bashguard\s+(?:disable|enable|var\s|[a-z-]+=)/i;
const VERBS = ['disable', 'disable-file', 'source', 'source-path', 'var'];
/** `# bashguard var NAME=value`: the value a variable has where the script starts. */
const VAR = /(^|\s)#\s*bashguard\s+var\s+([A-Za-z_][A-Za-z0-9_]*)=(\S*)\s*(?:--.*)?$/i;

/**
 * What the directives tell the analysis (ShellCheck's `source=`, `source-path=`): the file the
 * `source` command on a line reads, directories a sourced name is looked for in (relative to the
 * script's directory; `SCRIPTDIR` is that directory), and variables' starting values.
 */
export interface Hints {
  sources: { line: number; path: string }[];
  sourcePaths: string[];
  vars: { name: string; value: string }[];
}

/** The known verb a misspelt one most likely meant (edit distance <= 2), or null. */
function closestVerb(word: string): string | null {
  const dist = (a: string, b: string): number => {
    const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
    for (let j = 1; j <= b.length; j++) d[0]![j] = j;
    for (let i = 1; i <= a.length; i++) for (let j = 1; j <= b.length; j++) d[i]![j] = Math.min(d[i - 1]![j]! + 1, d[i]![j - 1]! + 1, d[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    return d[a.length]![b.length]!;
  };
  let best: string | null = null;
  for (const v of VERBS) if (dist(word, v) <= 2 && (best === null || dist(word, v) < dist(word, best))) best = v;
  return best;
}

function lineStarts(source: string): number[] {
  const starts = [0];
  for (let i = 0; i < source.length; i++) if (source.charCodeAt(i) === 10) starts.push(i + 1);
  return starts;
}

export function parseDirectives(source: string): { directives: Directive[]; problems: DirectiveProblem[]; hints: Hints } {
  const directives: Directive[] = [];
  const problems: DirectiveProblem[] = [];
  const hints: Hints = { sources: [], sourcePaths: [], vars: [] };
  if (!/bashguard/i.test(source)) return { directives, problems, hints };
  const starts = lineStarts(source);
  const lines = source.split('\n');
  const isCode = (l: string) => l.trim() !== '' && !l.trimStart().startsWith('#');
  for (let i = 0; i < lines.length; i++) {
    const text = lines[i]!.replace(/\r$/, '');
    if (!MENTION.test(text)) continue;
    const lineNo = i + 1;
    const hashAt = text.search(MENTION) + (MENTION.exec(text)![1]!.length);
    const mk = (col0: number, len: number): Range => ({
      start: starts[i]! + col0,
      end: starts[i]! + col0 + len,
      line: lineNo,
      column: col0 + 1,
      endLine: lineNo,
      endColumn: col0 + len + 1,
    });
    const whole = mk(hashAt, text.length - hashAt);
    const v = VAR.exec(text);
    if (v) {
      hints.vars.push({ name: v[2]!, value: v[3]! });
      continue;
    }
    const m = DIRECTIVE.exec(text);
    if (!m) {
      problems.push({ message: 'malformed bashguard directive (expected `# bashguard disable=RULE[,RULE] -- reason` or `disable-file=RULE`)', range: whole });
      continue;
    }
    const verb = m[2]!.toLowerCase();
    if ((verb === 'source' || verb === 'source-path') && m[3] && m[4]) {
      if (verb === 'source-path') hints.sourcePaths.push(m[4]);
      else {
        // The next code line, as for `disable=`.
        let j = i + 1;
        while (j < lines.length && !isCode(lines[j]!)) j++;
        hints.sources.push({ line: j + 1, path: m[4] });
      }
      continue;
    }
    if (verb === 'var') {
      problems.push({ message: '`# bashguard var` takes `NAME=value` (`# bashguard var PREFIX=/usr/local`)', range: whole });
      continue;
    }
    if (verb !== 'disable' && verb !== 'disable-file') {
      const guess = closestVerb(verb);
      problems.push({ message: `unknown bashguard directive \`${m[2]}\`${guess ? ` (did you mean \`${guess}\`?)` : ''} (known: disable, disable-file, source, source-path, var); it does nothing`, range: whole });
      continue;
    }
    if (!m[3] || !m[4]) {
      problems.push({ message: `\`# bashguard ${verb}\` needs a rule list: \`${verb}=RULE[,RULE]\` (or \`${verb}=all\`)`, range: whole });
      continue;
    }
    const listAt = text.indexOf(m[4], hashAt);
    const rules: DirectiveRule[] = [];
    let offset = 0;
    for (const ref of m[4].split(',')) {
      const at = listAt + offset;
      offset += ref.length + 1;
      if (ref === '') continue;
      const id = ref.toLowerCase() === 'all' ? 'all' : resolveRuleRef(ref);
      rules.push({ ref, id, used: false, range: mk(at, ref.length) });
    }
    const trailing = text.slice(0, hashAt).trim() !== '';
    let from = lineNo;
    let to = lineNo;
    if (verb === 'disable' && !trailing) {
      // The next code line, skipping blank lines and other comments (e.g. a second directive).
      let j = i + 1;
      while (j < lines.length && !isCode(lines[j]!)) j++;
      from = to = j + 1;
      while (to - 1 < lines.length && /\\\r?$/.test(lines[to - 1]!)) to++;
    } else if (verb === 'disable') {
      while (to - 1 < lines.length && /\\\r?$/.test(lines[to - 1]!)) to++;
    }
    directives.push({ kind: verb === 'disable-file' ? 'file' : 'line', from, to, rules, reason: m[5]?.trim() || null, range: whole });
  }
  return { directives, problems, hints };
}

/** Finds the directive rule that suppresses a finding of `rule` starting on `line`, and marks it used. */
export function suppress(directives: Directive[], rule: RuleId, line: number): DirectiveRule | null {
  let hit: DirectiveRule | null = null;
  for (const d of directives) {
    if (d.kind === 'line' && (line < d.from || line > d.to)) continue;
    for (const r of d.rules) {
      if (r.id === rule || r.id === 'all') {
        r.used = true;
        hit ??= r;
      }
    }
  }
  return hit;
}
