/**
 * Shell functions: their definitions (where each was defined, for effects of a call from another
 * text and for lint's every-function pass), calls (arguments as positional parameters, the
 * function's own redirects, `return`), recursion (summarized by one run with unknown arguments)
 * and lint's pass over the functions no call reached.
 */
import type { Command, FunctionDef, Range, Redirect } from '../syntax/ir.js';
import { HOLE, type Effect } from '../effects/types.js';
import { cloneState, dropVar, putVar, type State } from '../shell/state.js';
import type { LocalFrame } from '../shell/extras.js';
import type { Stdin } from '../commands/context.js';
import type { Field } from './expand.js';
import type { ReturnFrames } from './control-flow.js';
import type { FunctionSite } from './reachability.js';
import type { RedirectLayer } from './redirects.js';
import type { Site, SourceRef, Sources } from './sources.js';

const NO_LOCALS: LocalFrame = new Map();

/** Puts back what the frames above `depth` saved, innermost first, and drops them. */
function restoreLocals(st: State, depth: number): void {
  const frames = st.extras.locals;
  for (let i = frames.length - 1; i >= depth; i--) {
    for (const [name, saved] of frames[i]!) {
      if (saved === null) dropVar(st, name);
      else if (saved === 'unknown') putVar(st, name, { value: HOLE, confidence: 'possible', evidence: [], exported: false, fromEnvironment: false });
      else putVar(st, name, saved);
    }
  }
  if (frames.length > depth) st.extras.locals = frames.slice(0, depth);
}

/** How deep lint's every-function pass follows calls (the function itself is depth 1). */
const UNCALLED_DEPTH = 3;
const MAX_FUNCTION_DEPTH = 16;

/** What running a function needs of the interpreter. */
export interface FunctionHost {
  readonly effects: Effect[];
  readonly sources: Sources;
  readonly returns: ReturnFrames;
  /** The analysis stopped at its step or time budget. */
  readonly stepLimitReached: boolean;
  exec(cmd: Command, st: State, stdin: Stdin): void;
  emitOutput(text: string): void;
  limitProblem(reason: string, text: string, range: Range): void;
  setPositional(st: State, values: Field[] | null): void;
  openRedirects(list: Redirect[], st: State): RedirectLayer;
  closeRedirects(st: State, layer: RedirectLayer): void;
}

export class Functions {
  /** Where each function was defined (lint's every-function pass, and effects of a call from another file). */
  private readonly definedAt = new Map<FunctionDef, { source: SourceRef; sites: Site[]; st: State | null }>();
  private readonly called = new Set<FunctionDef>();
  /** Functions on the call stack, and those being re-analyzed with unknown arguments. */
  private readonly active = new Map<string, number>();
  private readonly summarizing = new Set<string>();
  private depth = 0;
  /**
   * In lint's every-function pass, calls are followed only this deep below the function analyzed:
   * a callee not followed is analyzed as a function of its own (each body once, not once per
   * caller chain, which grew past the step budget on large libraries).
   */
  private uncalledPass = false;

  /** `everyFunction`: keep each definition's state, for lint's pass over the functions no call reached. */
  constructor(private readonly host: FunctionHost, private readonly everyFunction: boolean) {}

  /** `f() { ...; }`: f is defined from here on. */
  define(fn: FunctionDef, st: State): void {
    st.funcs.set(fn.name, fn);
    if (!this.definedAt.has(fn)) this.definedAt.set(fn, { source: this.host.sources.current, sites: this.host.sources.sites, st: this.everyFunction ? cloneState(st) : null });
  }

  /** Where a function was defined, for reachability's report (null: the analyzed text's own). */
  readonly site: FunctionSite = (fn) => {
    const def = this.definedAt.get(fn);
    return def ? { line: fn.range.line, file: this.host.sources.isMain(def.source) ? null : def.source.file } : null;
  };

  /** `f args`: the body runs on the caller's state, with the arguments as $1 ... $N. */
  call(fn: FunctionDef, args: Field[], st: State, range: Range, stdin: Stdin): void {
    if (this.uncalledPass && this.depth >= UNCALLED_DEPTH) {
      this.host.emitOutput(HOLE);
      return;
    }
    if (this.depth >= MAX_FUNCTION_DEPTH) {
      this.host.limitProblem(`function calls nest deeper than ${MAX_FUNCTION_DEPTH} (at ${fn.name})`, fn.name, range);
      // What it would print is unknown, never empty: `$(f)/x` must not become `/x`.
      this.host.emitOutput(HOLE);
      return;
    }
    // Recursion: the body is analyzed once more with unknown arguments (covering every deeper
    // call), and calls made while doing so are summarized by that analysis.
    if (this.active.has(fn.name)) {
      if (this.summarizing.has(fn.name)) {
        this.host.emitOutput(HOLE);
        return;
      }
      this.summarizing.add(fn.name);
      try {
        this.runBody(fn, args.map((a) => ({ ...a, value: HOLE, confidence: 'possible' as const })), st, stdin, range);
      } finally {
        this.summarizing.delete(fn.name);
      }
      return;
    }
    this.runBody(fn, args, st, stdin, range);
  }

  private runBody(fn: FunctionDef, args: Field[] | null, st: State, stdin: Stdin, site?: Range): void {
    this.called.add(fn);
    // A function of another text (a sourced file's, an eval's): its ranges are that text's.
    const def = this.definedAt.get(fn);
    const sources = this.host.sources;
    if (def && site && def.source.id !== sources.current.id) {
      const start = this.host.effects.length;
      const here: Site = { range: site, note: `calls ${fn.name}`, from: sources.current };
      sources.within(def.source, [...sources.sites, here], () => this.runBody(fn, args, st, stdin));
      sources.crossed(this.host.effects, start, def.source, here);
      return;
    }
    this.depth++;
    this.active.set(fn.name, (this.active.get(fn.name) ?? 0) + 1);
    // The call replaces $1 ... $N, $@ and $#; the return puts back the caller's, whatever the body did to them.
    const saved = st.pos;
    this.host.setPositional(st, args);
    // The names the body makes local (`local v`, `declare v`) get back their values when it returns.
    const depth = st.extras.locals.length;
    st.extras.locals = [...st.extras.locals, NO_LOCALS];
    const layer = this.host.openRedirects(fn.redirects, st);
    try {
      this.host.returns.run(st, () => this.host.exec(fn.body, st, layer.stdin ?? stdin));
    } finally {
      this.host.closeRedirects(st, layer);
      restoreLocals(st, depth);
      st.pos = saved;
      const n = (this.active.get(fn.name) ?? 1) - 1;
      if (n > 0) this.active.set(fn.name, n);
      else this.active.delete(fn.name);
      this.depth--;
    }
  }

  /** Lint: the functions no call reached, each once, with unknown arguments, from the script's end. */
  runUncalled(end: State): void {
    const host = this.host;
    const main = host.sources.current.file;
    this.uncalledPass = true;
    for (const [fn, def] of this.definedAt) {
      if (this.called.has(fn)) continue;
      // A sourced file's own functions are that file's to analyze (lint reads it on its own).
      if (def.source.file !== null && def.source.file !== main) continue;
      if (host.stepLimitReached) return;
      const st = cloneState(end.terminated || !def.st ? def.st ?? end : end);
      st.terminated = false;
      st.returned = false;
      const start = host.effects.length;
      host.sources.within(def.source, def.sites, () => {
        this.called.add(fn);
        this.runBody(fn, null, st, { kind: 'unknown' });
      });
      // From the outermost file's view: at the commands that led to the definition.
      for (let k = def.sites.length - 1; k >= 0; k--) {
        const site = def.sites[k]!;
        host.sources.crossedFrom(site.from, host.effects, start, k === def.sites.length - 1 ? def.source : def.sites[k + 1]!.from, site);
      }
    }
  }
}
