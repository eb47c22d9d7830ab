/**
 * Simple commands: a command's words expanded, its prefix assignments, its redirects (and the
 * file it prints into), and the dispatch of its argv: to a shell function, to a builtin's
 * shell-level part (SpecModule.shell, in its spec), to a script this command wrote, or to the command's spec
 * in src/engine/commands (an unknown program otherwise). Each simple command and function call is
 * one step of the analysis' budget.
 */
import { nameSubscripts } from './arith-code.js';
import type { FunctionDef, Range, Redirect, SimpleCommand } from '../syntax/ir.js';
import { HOLE } from '../effects/types.js';
import type { Confidence } from '../effects/confidence.js';
import { cloneState, getVar, type State } from '../shell/state.js';
import type { Truth } from '../shell/conditions.js';
import { basenameOf, displayPath } from '../shell/paths.js';
import { lookupCommand, shellBuiltin } from '../commands/registry.js';
import { pathArguments, unknownCommand, unlisted } from '../commands/unknown.js';
import type { BuiltinHost, CommandContext, Invocation, Stdin } from '../commands/context.js';
import { expandScalar, expandWord, type Field } from './expand.js';
import { declare, setVar, type AssignHost } from './assign.js';
import { namedDescriptors, type RedirectHost, type RedirectLayer } from './redirects.js';
import type { EffectLog } from './effect-log.js';
import type { AnalyzeContext } from './analyze-context.js';
import { pathOf } from './nested.js';

const DEFAULT_STEPS = 20_000;

/** The environment of a command without prefix assignments. Never written (only simple() fills a fresh one). */
const NO_ENV: Map<string, Field> = new Map();

/** What a simple command needs of the interpreter: what command specs and builtins see, and the pieces it hands a command to. */
export interface CommandHost extends CommandContext, BuiltinHost, AssignHost, RedirectHost {
  readonly ctx: AnalyzeContext;
  readonly log: EffectLog;
  /** Where what commands print goes, for `$(...)`; null where nothing captures it. */
  capture: string[] | null;
  status: Truth;
  openRedirects(list: Redirect[], st: State): RedirectLayer;
  closeRedirects(st: State, layer: RedirectLayer): void;
  /** The failure path the command just run left for `st` (CommandContext#mayFail), not yet joined. */
  failureOf(st: State): State | null;
  recordFile(path: string, text: string | null, append: boolean): void;
  callFunction(fn: FunctionDef, args: Field[], st: State, range: Range, stdin: Stdin): void;
  /** An alias's expansion run in the command's place (nested.ts); false when the command is no alias. */
  expandAlias(cmd: SimpleCommand, st: State, stdin: Stdin): boolean;
  /** A script this command wrote, run (nested.ts); false when the command runs no such script. */
  runWritten(shown: string, name: string, args: Field[], st: State, range: Range): boolean;
}

export class SimpleCommands {
  private steps = 0;
  private limitReported = false;
  private nextNamedFd = 10;

  constructor(private readonly host: CommandHost) {}

  /** The analysis stopped at its step or time budget. */
  get limitReached(): boolean {
    return this.limitReported;
  }

  /** Counts a step; false once the budget (steps or time) is spent, reported once. */
  tick(range: Range): boolean {
    const host = this.host;
    this.steps++;
    const outOfTime = host.ctx.deadline !== undefined && (this.steps & 31) === 0 && performance.now() > host.ctx.deadline;
    if (outOfTime || this.limitReported || this.steps > (host.ctx.maxSteps ?? DEFAULT_STEPS)) {
      if (!this.limitReported) {
        this.limitReported = true;
        host.log.effects.push({
          kind: 'problem',
          category: 'analysis-limit',
          reason: outOfTime ? 'analysis stopped at its time budget' : `analysis stopped after ${host.ctx.maxSteps ?? DEFAULT_STEPS} steps`,
          text: '',
          range,
          via: host.log.via,
        });
      }
      return false;
    }
    return true;
  }

  /** Runs one simple command: words, assignments, redirects, then its argv. */
  run(cmd: SimpleCommand, st: State, stdin: Stdin): void {
    const host = this.host;
    if (!this.tick(cmd.range)) return;
    if (host.expandAlias(cmd, st, stdin)) return;
    const fields: Field[] = [];
    for (const w of cmd.words) {
      const { fields: fs, truncated } = expandWord(w, st, host);
      if (truncated) {
        host.log.effects.push({
          kind: 'problem',
          category: 'analysis-limit',
          reason: 'brace expansion produces too many words to check',
          text: w.text,
          range: w.range,
          via: host.log.via,
        });
      }
      for (let i = 0; i < fs.length; i++) fields.push(fs[i]!);
    }
    // Prefix assignments: alone they set shell variables; before a command, its environment.
    const env = cmd.assigns.length > 0 ? new Map<string, Field>() : NO_ENV;
    for (const a of cmd.assigns) {
      const value = a.value ? expandScalar(a.value, st, host) : { value: a.unknownValue ? HOLE : '', confidence: 'certain' as Confidence, evidence: [], glob: false };
      if (fields.length === 0) host.assignVariable(st, a, value, {});
      else env.set(a.name, value);
    }
    // `exec {fd}>file`: bash picks a free descriptor (10 and up) and stores its number in fd.
    const named = namedDescriptors(cmd, fields);
    for (const n of named) {
      const fd = this.nextNamedFd++;
      setVar(st, n.variable, String(fd), 'certain', [{ range: n.redirect.range, note: `{${n.variable}} opened descriptor ${fd}` }]);
    }
    if (named.length > 0) fields.splice(0, fields.length, ...fields.filter((f) => !named.some((n) => n.field === f)));
    const redirects = named.length > 0 ? cmd.redirects.map((r) => named.find((n) => n.redirect === r) ? { ...r, fd: Number(getVar(st, named.find((n) => n.redirect === r)!.variable)!.value) } : r) : cmd.redirects;
    const layer = host.openRedirects(redirects, st);
    // `exec` without a command applies its redirects to the shell itself.
    const permanent = fields.length === 1 && fields[0]!.value === 'exec';
    // `cat > x.sh <<EOF`, `printf ... > do.sh`: what the command prints is the file's content.
    const outFile = !permanent && layer.saved.has(1) ? st.extras.fds.get(1) : undefined;
    const outPath = outFile && !outFile.path.includes(HOLE) ? outFile.path : null;
    const savedCapture = host.capture;
    // Output sent elsewhere (a file, /dev/null, stderr) is not what `$(...)` captures.
    const printed: string[] | null = !permanent && layer.saved.has(1) ? [] : null;
    if (printed !== null) host.capture = printed;
    try {
      this.runFields(cmd, fields, env, st, layer.stdin ?? stdin);
    } finally {
      host.capture = savedCapture;
      if (!permanent) {
        host.closeRedirects(st, layer);
        // A `cd` that may have failed (`cd x 2>/dev/null`) left its failure path with them open too.
        const failure = host.failureOf(st);
        if (failure !== null) host.closeRedirects(failure, layer);
      }
    }
    if (outPath !== null) host.recordFile(outPath, fields.length > 0 ? printed!.join('') : '', layer.appending.has(1));
  }

  private runFields(cmd: SimpleCommand, fields: Field[], env: Map<string, Field>, st: State, input: Stdin): void {
    const host = this.host;
    if (host.ctx.commandTraces !== false && (fields.length > 0 || cmd.words.length > 0)) {
      const argv: string[] = [];
      for (let i = 0; i < fields.length; i++) {
        const v = fields[i]!.value;
        argv.push(v.includes(HOLE) ? displayPath(v) : v);
      }
      host.log.commands.push({ range: cmd.range, argv, cwd: st.cwd.paths, via: host.log.via });
    }
    if (fields.length === 0) return;
    declare(host, cmd, fields, st);
    this.dispatch(fields, env, st, cmd.range, input);
  }

  /** Runs argv (already expanded) from `st`. Also the entry point for wrappers' inner commands. */
  dispatch(fields: Field[], env: Map<string, Field>, st: State, range: Range, stdin: Stdin, bypassFunctions = false): void {
    const host = this.host;
    host.status = null;
    let first = fields[0];
    if (!first) return;
    let shown = first.value;
    const args = fields.slice(1);
    // A lone `[` is no pattern (nothing closes it): it is the test builtin.
    if (shown.includes(HOLE) || (first.glob && shown !== '[')) {
      // `$CMD args`, `r[m] -rf x`: we cannot know what runs. Every path it is given may be
      // written, relative ones against the cwd, and so may the cwd it was moved to; absolute
      // paths anywhere in its words too.
      host.log.unknownProgramRan = true;
      host.maybeWrites(args.map((a) => a.value).join(' '), range, `${displayPath(shown)}`, 'an unknown command');
      unknownCommand({ name: shown, shown, args, st, env, range, via: host.log.via, stdin }, host, args, displayPath(shown));
      return;
    }
    const fn = bypassFunctions ? undefined : st.funcs.get(shown);
    if (fn && !shown.includes('/')) {
      host.callFunction(fn, args, st, range, stdin);
      return;
    }
    // Builtins' shell-level parts, before the hash table and PATH.
    const builtin = shown.includes('/') ? undefined : shellBuiltin(shown);
    if (!shown.includes('/')) nameSubscripts(host, shown, args, st, range);
    if (builtin) {
      const inv: Invocation = { name: shown, shown, args, st, env, range, via: host.log.via, stdin };
      const mark = host.capture?.length ?? 0;
      if (builtin.shell!(inv, host)) {
        if (builtin.shellPrints && (host.capture?.length ?? 0) === mark) host.emitOutput(HOLE);
        return;
      }
    }
    // `hash -p PATH NAME`: NAME runs PATH.
    const hashed = shown.includes('/') ? undefined : st.extras.hashed.get(shown);
    if (hashed !== undefined) {
      first = { ...first, value: hashed, evidence: [...first.evidence, { range, note: `${shown} runs ${displayPath(hashed)} (hash -p)` }] };
      shown = hashed;
      if (hashed.includes(HOLE)) {
        host.log.unknownProgramRan = true;
      host.maybeWrites(args.map((a) => a.value).join(' '), range, `${displayPath(shown)}`, 'an unknown command');
        return;
      }
    }
    const name = shown.includes('/') ? basenameOf(shown) : shown;
    if (host.runWritten(shown, name, args, st, range)) return;
    const inv: Invocation = { name, shown, args, st, env, range, via: host.log.via, stdin };
    const spec = lookupCommand(name);
    // What it prints matters only where output is captured (`$(...)`, a pipe, a file it writes).
    if (host.capture !== null) {
      const out = spec?.output ? spec.output(inv, host) : null;
      if (out !== null) host.emitOutput(out);
      else if (!spec?.silent) host.emitOutput(HOLE);
    }
    if (spec) {
      spec.run(inv, host);
      // nullglob: a glob without a match vanishes and the next word takes its place.
      if (st.extras.shopts.has('nullglob') && spec.category !== 'read' && args.some((a) => a.glob)) unlisted(inv, host, pathArguments(args), 'with nullglob, a glob may vanish and shift it');
    } else {
      host.log.unknownProgramRan = true;
      unknownCommand(inv, host);
      // Where no such program exists, bash runs this function instead, in a separate environment.
      const handler = bypassFunctions ? undefined : st.funcs.get('command_not_found_handle');
      if (handler) host.possibly(() => host.callFunction(handler, fields, cloneState(st), range, stdin));
    }
    // `tee FILE <<EOF`: the files get what tee reads.
    if (name === 'tee') {
      const append = args.some((a) => a.value === '-a' || a.value === '--append');
      for (const a of args) {
        if (a.value.startsWith('-')) continue;
        const path = pathOf(a.value, st);
        if (path !== null) host.recordFile(path, stdin.kind === 'text' && stdin.known ? stdin.text : null, append);
      }
    }
  }
}
