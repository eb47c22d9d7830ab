/**
 * What the builtins (./builtins.ts) need of the interpreter: shell state they set, the problems
 * they report and the nested runs they start. The interpreter implements it; the builtins see
 * only this, so the two files do not import each other.
 */
import type { Assignment, Range } from '../syntax/ir.js';
import type { Evidence } from '../effects/types.js';
import type { Confidence } from '../effects/confidence.js';
import type { ArrayValue, CwdValue, State } from '../shell/state.js';
import type { SourceLine } from '../shell/extras.js';
import type { Field } from './expand.js';
import type { TestContext, Truth } from '../shell/conditions.js';
import type { Invocation } from '../commands/context.js';

/** The options of `declare -Anx ...` / `local -n` / `export`. */
export interface DeclareFlags {
  exported?: boolean;
  assoc?: boolean;
  indexed?: boolean;
  nameref?: boolean;
}

export interface BuiltinHost {
  status: Truth;
  readsUnknown: boolean;
  assignVariable(st: State, a: Assignment, value: Field | null, flags: DeclareFlags): void;
  dynamicProblem(reason: string, text: string, range: Range): void;
  limitProblem(reason: string, text: string, range: Range): void;
  /** `break N` / `continue N`: the path leaves N loops (control-flow.ts LoopFrames). */
  loopJump(st: State, kind: 'break' | 'continue', levels: number): void;
  emitOutput(text: string): void;
  runBackground(fields: Field[], inv: Invocation): void;
  runTrap(code: string, st: State, range: Range, label: string, inPlace: boolean): void;
  setArray(st: State, name: string, arr: ArrayValue, confidence: Confidence, evidence: Evidence[], exported?: boolean): void;
  setCwd(st: State, next: CwdValue, range: Range, command: string): void;
  setPositional(st: State, values: Field[] | null): void;
  setVar(st: State, name: string, value: string, confidence: Confidence, evidence: Evidence[], exported?: boolean): void;
  sourceLine(range: Range): SourceLine;
  testContext(st: State, doubleBracket: boolean): TestContext;
}
