/**
 * Nested shells: code the analyzed command runs as shell code of its own (`bash -c`, `eval`,
 * `source FILE`, a script it wrote and then runs, a trap handler, an alias's expansion), and
 * commands run from another (wrappers like sudo and xargs, `cmd &`). Each nested text is parsed
 * and run through NestedHost#exec; its effects are reported at the command that ran it.
 */
import type { Command, Range, SimpleCommand } from '../syntax/ir.js';
import { HOLE } from '../effects/types.js';
import { childState, cloneState, type CwdValue, type State } from '../shell/state.js';
import { basenameOf, descriptorOfPath, displayPath, joinPath, normalizeLogical } from '../shell/paths.js';
import { lookupCommand } from '../commands/registry.js';
import type { Invocation, Stdin } from '../commands/context.js';
import type { Field } from './expand.js';
import type { ReturnFrames } from './control-flow.js';
import type { EffectLog } from './effect-log.js';
import type { Site, Sources } from './sources.js';
import type { AnalyzeContext } from './analyze-context.js';
import { setPositional } from './assign.js';

const DEFAULT_SHELL_DEPTH = 12;

/** Shells that run a script file given as their first operand. */
const SHELL_NAMES = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'rbash', 'yash', 'posh']);

/** What nested runs need of the interpreter. */
export interface NestedHost {
  readonly ctx: AnalyzeContext;
  readonly log: EffectLog;
  readonly sources: Sources;
  readonly returns: ReturnFrames;
  exec(cmd: Command, st: State, stdin: Stdin): void;
  /** Runs argv from `st` (bypassFunctions: `command f`, a wrapper's inner command). */
  dispatch(fields: Field[], env: Map<string, Field>, st: State, range: Range, stdin: Stdin, bypassFunctions?: boolean): void;
  setCwd(st: State, next: CwdValue, range: Range, command: string): void;
  emitOutput(text: string): void;
}

export class NestedShells {
  private depth = 0;
  /**
   * States of child shells: their EXIT traps run when the nested code they run ends. Made with
   * the first child shell (most commands start none: one allocation less per check).
   */
  private childShells: WeakSet<State> | null = null;
  private readonly expandingAliases = new Set<string>();

  constructor(private readonly host: NestedHost) {}

  /** Analyzes shell source (`bash -c`, `eval`, a heredoc fed to a shell) in `st`. */
  runNested(source: string, st: State, range: Range, label: string, stdin: Stdin = { kind: 'unknown' }, file: string | null = null): void {
    if (this.depth >= (this.host.ctx.maxShellDepth ?? DEFAULT_SHELL_DEPTH)) {
      this.host.log.limitProblem(`nested shells deeper than ${this.host.ctx.maxShellDepth ?? DEFAULT_SHELL_DEPTH} levels`, label, range);
      return;
    }
    const parsed = this.host.ctx.parse(source);
    if ('error' in parsed) {
      this.host.log.effects.push({ kind: 'problem', category: parsed.limit ? 'analysis-limit' : 'syntax', reason: `${label}: ${parsed.error}`, text: source.slice(0, 200), range, via: this.host.log.via });
      return;
    }
    this.depth++;
    const savedVia = this.host.log.via;
    const sources = this.host.sources;
    const inner = sources.make(source, file);
    const here: Site = { range, note: label, from: sources.current };
    this.host.log.via = [...this.host.log.via, label];
    try {
      // Ranges inside the nested source are relative to it; report them at the outer command.
      for (const p of parsed.problems) {
        this.host.log.effects.push({ kind: 'problem', category: 'syntax', reason: p.reason, text: p.text, range, via: this.host.log.via });
      }
      const before = this.host.log.effects.length;
      const tl = this.host.log.timeline.length;
      const cmds = this.host.log.commands.length;
      sources.within(inner, [...sources.sites, here], () => {
        this.host.exec(parsed.body, st, stdin);
        if (this.childShells?.has(st)) this.runExitTraps(st);
      });
      sources.crossed(this.host.log.effects, before, inner, here);
      for (let i = tl; i < this.host.log.timeline.length; i++) this.host.log.timeline[i]!.range = range;
      for (let i = cmds; i < this.host.log.commands.length; i++) this.host.log.commands[i]!.range = range;
    } finally {
      this.host.log.via = savedVia;
      this.depth--;
    }
  }

  /** `source FILE`: read and analyze it when possible, else report it as not analyzed. */
  sourceFile(path: Field, st: State, range: Range, stdin: Stdin = { kind: 'unknown' }): void {
    const written = pathOf(path.value, st);
    if (written !== null && this.host.log.writtenFiles.has(written)) {
      this.runWrittenScript(written, displayPath(path.value), [], st, range, 'source');
      return;
    }
    // `source /dev/stdin <<< CODE`, `source /dev/fd/3`: code this command feeds in, not a file on disk.
    const fd = written === null ? null : descriptorOfPath(written);
    if (fd !== null) {
      const label = `source ${displayPath(path.value)}`;
      if (fd === 0 && stdin.kind === 'text' && stdin.known) this.host.returns.run(st, () => this.runNested(stdin.text, st, range, label));
      else this.host.log.dynamicProblem(`${label} runs code read from a descriptor, which cannot be known statically`, label, range);
      return;
    }
    let abs = path.value.startsWith('/') ? path.value : st.cwd.paths?.length === 1 ? joinPath(st.cwd.paths[0]!, path.value) : null;
    const hints = this.host.ctx.sourceHints;
    const hinted = hints && this.host.sources.current.file === (this.host.ctx.file ?? null) ? hints.at.get(range.line) : undefined;
    if (hinted !== undefined) abs = hinted;
    let text = abs && !abs.includes(HOLE) ? this.host.ctx.host?.readFile?.(abs) ?? null : null;
    if (text === null && hinted === undefined && hints && hints.dirs.length > 0) {
      // What is known of the name (`$DIR/lib.sh`: `lib.sh`), in each directory given.
      const tail = path.value.slice(path.value.lastIndexOf(HOLE) + 1).replace(/^\/+/, '');
      for (const dir of tail === '' ? [] : hints.dirs) {
        const candidate = joinPath(dir, tail);
        text = this.host.ctx.host?.readFile?.(candidate) ?? null;
        if (text !== null) {
          abs = candidate;
          break;
        }
      }
    }
    if (text === null) {
      this.host.log.dynamicProblem(`sources ${displayPath(path.value)}, which was not analyzed`, `source ${displayPath(path.value)}`, range);
      return;
    }
    // `return` in a sourced file ends that file, not the script that sourced it.
    this.host.returns.run(st, () => this.runNested(text, st, range, `source ${displayPath(path.value)}`, undefined, abs));
  }

  /** Runs `fields` as a command in a child process started from `st` (wrappers like sudo, xargs). */
  runWrapped(fields: Field[], env: Map<string, Field>, st: State, range: Range, label: string, stdin: Stdin, cwd?: CwdValue): void {
    const savedVia = this.host.log.via;
    this.host.log.via = [...this.host.log.via, label];
    // `builtin pwd` / `command rm` skip shell functions of that name; external wrappers never see them.
    const bypass = true;
    try {
      if (cwd) {
        const child = cloneState(st);
        this.host.setCwd(child, cwd, range, label);
        this.host.dispatch(fields, env, child, range, stdin, bypass);
      } else {
        this.host.dispatch(fields, env, st, range, stdin, bypass);
      }
    } finally {
      this.host.log.via = savedVia;
    }
  }

  /** A fresh child shell state (`bash -c`): cwd and exported variables only. */
  child(st: State): State {
    const c = childState(st);
    (this.childShells ??= new WeakSet<State>()).add(c);
    return c;
  }

  /** A trap handler: EXIT handlers run when the shell ends; others may run at any time, so now, in a copy. */
  runTrap(code: string, st: State, range: Range, label: string, inPlace: boolean): void {
    this.runNested(code, inPlace ? st : cloneState(st), range, label);
  }

  runExitTraps(st: State): void {
    const handlers = st.extras.traps.get('EXIT');
    if (!handlers) return;
    st.extras.traps.delete('EXIT');
    for (const h of handlers) {
      const end = cloneState(st);
      this.runTrap(h.code, end, h.range, 'trap EXIT', true);
    }
  }

  /** `coproc cmd`, `cmd &`: runs in a background subshell. */
  runBackground(fields: Field[], inv: Invocation): void {
    const savedVia = this.host.log.via;
    this.host.log.via = [...this.host.log.via, inv.name];
    try {
      this.host.dispatch(fields, inv.env, cloneState(inv.st), inv.range, { kind: 'unknown' });
    } finally {
      this.host.log.via = savedVia;
    }
  }

  /**
   * Runs a script this command wrote (`bash x.sh`, `./x.sh`, `source x.sh`): its content is
   * analyzed as a nested shell (a child shell unless sourced); unknown content is dynamic.
   */
  runWrittenScript(path: string, shown: string, args: Field[], st: State, range: Range, how: 'child' | 'source'): void {
    const entry = this.host.log.writtenFiles.get(path)!;
    const label = how === 'source' ? `source ${shown}` : shown;
    if (!entry.known) {
      this.host.log.dynamicProblem(`runs ${shown}, which this command writes with content not known statically`, label, range);
      return;
    }
    const shebang = /^#!\s*(\S+)(?:\s+(\S+))?/.exec(entry.text);
    const prog = shebang ? basenameOf(shebang[1]!) === 'env' && shebang[2] ? basenameOf(shebang[2]) : basenameOf(shebang[1]!) : null;
    if (how === 'child' && prog !== null && !SHELL_NAMES.has(prog)) {
      const spec = lookupCommand(prog);
      if (spec?.category === 'code') this.host.log.maybeWrites(entry.text, range, prog, `the ${prog} script ${shown} this command writes`);
      else this.host.log.dynamicProblem(`runs ${shown}, a ${prog} script this command writes`, label, range);
      return;
    }
    if (how === 'source') {
      this.host.returns.run(st, () => this.runNested(entry.text, st, range, label));
      return;
    }
    const child = this.child(st);
    setPositional(child, args);
    this.runNested(entry.text, child, range, label);
  }

  /**
   * A script this command wrote, run by path (`./do.sh`) or by a shell (`bash x.sh`): analyzed as
   * its text (runWrittenScript), and true; false for any other command. A program written some
   * other way (`gcc -o x`, `cp`) runs like any program the table does not know.
   */
  runWritten(shown: string, name: string, args: Field[], st: State, range: Range): boolean {
    if (shown.includes('/')) {
      const path = pathOf(shown, st);
      if (path !== null && this.host.log.writtenFiles.get(path)?.printed) {
        this.host.emitOutput(HOLE);
        this.runWrittenScript(path, shown, args, st, range, 'child');
        return true;
      }
    }
    if (SHELL_NAMES.has(name)) {
      const i = scriptOperand(args);
      const path = i === null ? null : pathOf(args[i]!.value, st);
      if (path !== null && this.host.log.writtenFiles.has(path)) {
        this.host.emitOutput(HOLE);
        this.runWrittenScript(path, displayPath(args[i!]!.value), args.slice(i! + 1), st, range, 'child');
        return true;
      }
    }
    return false;
  }

  /**
   * Aliases, as a non-interactive bash expands them: only after `shopt -s expand_aliases`, and
   * only on lines read after both that and the alias definition (bash reads a line before it runs it).
   */
  expandAlias(cmd: SimpleCommand, st: State, stdin: Stdin): boolean {
    const on = st.extras.expandAliases;
    const w = cmd.words[0];
    if (!on || !w || !w.parts.every((p) => p.kind === 'text' && p.quoting === 'none')) return false;
    const a = st.extras.aliases.get(w.text);
    if (!a || this.expandingAliases.has(w.text)) return false;
    const here = this.host.sources.line(cmd.range);
    const before = (d: { source: number; line: number }) => d.source !== here.source || d.line < here.line;
    if (!before(a) || !before(on)) return false;
    const src = this.host.sources.current.text;
    if (cmd.range.end > src.length || src.slice(w.range.start, w.range.end) !== w.text) return false;
    const text = src.slice(cmd.range.start, w.range.start) + a.text + src.slice(w.range.end, cmd.range.end);
    this.expandingAliases.add(w.text);
    try {
      this.runNested(text, st, cmd.range, `alias ${w.text}`, stdin);
    } finally {
      this.expandingAliases.delete(w.text);
    }
    return true;
  }
}

/** The absolute normalized path a command word names, when it is known and single. */
export function pathOf(value: string, st: State): string | null {
  if (value.includes(HOLE)) return null;
  if (value.startsWith('/')) return normalizeLogical(value);
  const cwd = st.cwd.paths?.length === 1 ? st.cwd.paths[0]! : null;
  return cwd && !cwd.includes(HOLE) ? normalizeLogical(joinPath(cwd, value)) : null;
}

/** The index of the script operand of `bash [options] FILE args`, or null (`-c`, `-s`, none). */
function scriptOperand(args: Field[]): number | null {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!.value;
    if (a === '--') return i + 1 < args.length ? i + 1 : null;
    if (/^-[a-zA-Z]*[cs]/.test(a)) return null;
    if (a === '-o' || a === '+o' || a === '-O' || a === '+O' || a === '--rcfile' || a === '--init-file') {
      i++;
      continue;
    }
    if (a.startsWith('-') || a.startsWith('+')) continue;
    return i;
  }
  return null;
}
