/** A shell variable as the interpreter tracks it (apart from state.ts so extras.ts can name it). */
import type { Evidence } from '../effects/types.js';
import type { Confidence } from '../effects/confidence.js';

export interface Variable {
  /** The value with HOLE where unknown. */
  value: string;
  confidence: Confidence;
  evidence: Evidence[];
  exported: boolean;
  /** True for variables from the hook's environment (HOME, TMPDIR ...): as good as literal. */
  fromEnvironment: boolean;
  /** Indexed or associative array elements in order (`value` is element 0); absent for scalars. */
  array?: ArrayValue;
  /** `declare -n` / `local -n`: this variable names another one. */
  nameref?: string;
  /** Its value rests on a guess about the environment (Field#guessed): no condition is decided on it. */
  guessed?: boolean;
}

export interface ArrayValue {
  assoc: boolean;
  /** Keys in order with their values (HOLE where unknown). */
  entries: [string, string][];
  /** True when elements may exist that are not listed (appended from unknown input). */
  partial: boolean;
}
