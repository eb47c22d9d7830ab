/**
 * Lint: which commands of the analyzed file no path reaches, and why (like ShellCheck's SC2317).
 * A sequence whose path ended (`exit`, `return`, a function that exits on every path, an `if`
 * whose every branch exits) names its remaining commands as a candidate region; a region is
 * unreachable only when no run of the sequence ever reached its first command (a function called
 * twice, a loop body, the pass over uncalled functions all count). An analysis that stopped at a
 * limit did not follow every path: then nothing is said.
 */
import type { Command, FunctionDef, Range } from '../syntax/ir.js';
import type { State } from '../shell/state.js';

export interface Unreachable {
  /** From the first unreached command to the end of the last one of its sequence. */
  range: Range;
  /** Why no path gets there: "after `exit` on line 3", "`die` (line 1) exits on every path". */
  reason: string;
}

/** Where a function is defined, for the reason: its line in the analyzed file, or the file it is in. */
export type FunctionSite = (fn: FunctionDef) => { line: number; file: string | null } | null;

interface Candidate {
  first: Command;
  last: Command;
  reason: string;
}

export class Reachability {
  private readonly reached = new Set<Command>();
  private readonly candidates = new Map<Command, Candidate>();

  reach(cmd: Command): void {
    this.reached.add(cmd);
  }

  /** The path ended after `items[at - 1]`: the rest of the sequence is a candidate region. */
  endedAt(items: readonly { command: Command }[], at: number, st: State, site: FunctionSite): void {
    const first = items[at]!.command;
    if (this.candidates.has(first)) return;
    this.candidates.set(first, { first, last: items[items.length - 1]!.command, reason: reasonFor(items[at - 1]!.command, st, site) });
  }

  result(): Unreachable[] {
    const out: Unreachable[] = [];
    for (const c of this.candidates.values()) {
      if (this.reached.has(c.first)) continue;
      const a = c.first.range;
      const b = c.last.range;
      out.push({ range: { start: a.start, end: b.end, line: a.line, column: a.column, endLine: b.endLine, endColumn: b.endColumn }, reason: c.reason });
    }
    return out.sort((x, y) => x.range.start - y.range.start);
  }
}

const ENDS_SHELL: Record<string, string> = { exit: 'exit', logout: 'exit', return: 'return', exec: 'exec', break: 'break', continue: 'continue' };

function reasonFor(prev: Command, st: State, site: FunctionSite): string {
  const line = prev.range.line;
  let simple: Command | null = prev;
  while (simple && simple.kind === 'pipeline' && simple.commands.length === 1) simple = simple.commands[0]!;
  if (simple?.kind === 'simple' && simple.words.length > 0) {
    const name = simple.words[0]!.text;
    const builtin = ENDS_SHELL[name];
    if (builtin) return `after \`${builtin}\` on line ${line}`;
    const fn = st.funcs.get(name);
    const def = fn ? site(fn) : null;
    if (def) {
      const where = def.file === null ? `line ${def.line}` : `${def.file}:${def.line}`;
      return `\`${name}\` (${where}) ${st.returned ? 'returns' : 'exits'} on every path (called on line ${line})`;
    }
  }
  const what = prev.kind === 'if' ? 'the `if`' : prev.kind === 'case' ? 'the `case`' : prev.kind === 'loop' ? 'the loop' : 'the command';
  return `every path through ${what} on line ${line} ${st.returned ? 'returns' : 'exits'}`;
}
