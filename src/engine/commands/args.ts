/**
 * A small getopt driven by data: which short letters and long names take a value.
 * GNU tools permute options and operands; POSIX tools and wrappers stop at the first operand.
 */
import type { Field } from '../shell/field.js';

export interface OptionGrammar {
  /** Short option letters that take a value (`-o FILE`, `-oFILE`). */
  short?: string;
  /** Long option names (without `--`) that take a value (`--output FILE`, `--output=FILE`). */
  long?: readonly string[];
  /** Stop at the first operand (everything after it is operands): POSIX utilities and wrappers. */
  stopAtOperand?: boolean;
  /** Long options may be written with one dash (`find`, `java`): not used by getopt tools. */
  singleDashLong?: boolean;
  /**
   * Every short option letter that takes no value. Where it is given, a letter in neither `short`
   * nor `flags` is an option this entry does not describe: the rest of its cluster, or else the
   * next word, may be its value (ParsedArgs.maybeValues). Where it is not, any other letter is
   * taken as a flag.
   */
  flags?: string;
}

export interface ParsedOption {
  /** `-o` or `--output`. */
  name: string;
  value: Field | null;
  field: Field;
}

export interface ParsedArgs {
  options: ParsedOption[];
  operands: Field[];
  /** Index in the original args of each operand (for wrappers that hand the rest on). */
  operandIndex: number[];
  /** What may be the value of an option the grammar does not describe (`flags` declared): also kept where it was parsed. */
  maybeValues: Field[];
}

const NO_LONG: ReadonlySet<string> = new Set();
const longSets = new WeakMap<readonly string[], ReadonlySet<string>>();

/** The long option names of a grammar as a set, built once per grammar (they are table data). */
function longNames(list: readonly string[] | undefined): ReadonlySet<string> {
  if (!list) return NO_LONG;
  let set = longSets.get(list);
  if (!set) longSets.set(list, (set = new Set(list)));
  return set;
}

export function parseArgs(args: Field[], g: OptionGrammar): ParsedArgs {
  const options: ParsedOption[] = [];
  const operands: Field[] = [];
  const operandIndex: number[] = [];
  const maybeValues: Field[] = [];
  const short = g.short ?? '';
  const long = longNames(g.long);
  let onlyOperands = false;
  for (let i = 0; i < args.length; i++) {
    const f = args[i]!;
    const a = f.value;
    if (onlyOperands || a === '-' || !a.startsWith('-') || a.length === 1) {
      operands.push(f);
      operandIndex.push(i);
      if (g.stopAtOperand) onlyOperands = true;
      continue;
    }
    if (a === '--') {
      onlyOperands = true;
      continue;
    }
    if (a.startsWith('--')) {
      const eq = a.indexOf('=');
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      if (eq >= 0) {
        options.push({ name: '--' + name, value: { ...f, value: a.slice(eq + 1) }, field: f });
      } else if (long.has(name) && i + 1 < args.length) {
        options.push({ name: '--' + name, value: args[++i]!, field: f });
      } else options.push({ name: '--' + name, value: null, field: f });
      continue;
    }
    // A cluster of short options: `-sSLo file`, `-i.bak`, `-C/dir`.
    for (let j = 1; j < a.length; j++) {
      const letter = a[j]!;
      if (short.includes(letter)) {
        const rest = a.slice(j + 1);
        if (rest) options.push({ name: '-' + letter, value: { ...f, value: rest }, field: f });
        else if (i + 1 < args.length) options.push({ name: '-' + letter, value: args[++i]!, field: f });
        else options.push({ name: '-' + letter, value: null, field: f });
        break;
      }
      options.push({ name: '-' + letter, value: null, field: f });
      if (g.flags !== undefined && !g.flags.includes(letter)) {
        // Closed world: an option the entry does not describe may take a value.
        const rest = a.slice(j + 1);
        if (rest) maybeValues.push({ ...f, value: rest });
        else if (i + 1 < args.length && !args[i + 1]!.value.startsWith('-')) maybeValues.push(args[i + 1]!);
        break;
      }
    }
  }
  return { options, operands, operandIndex, maybeValues };
}

export function hasOption(p: ParsedArgs, ...names: string[]): boolean {
  return p.options.some((o) => names.includes(o.name));
}

export function optionValues(p: ParsedArgs, ...names: string[]): Field[] {
  return p.options.filter((o) => names.includes(o.name) && o.value).map((o) => o.value!);
}
