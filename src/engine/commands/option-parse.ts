/**
 * How bash's `set` and `shopt` read their arguments (bash's builtins/set.def and shopt.def), so
 * that an option's value is never taken for a positional parameter: in `set -euo pipefail`, `o`
 * takes `pipefail` as its name, and the positional parameters stay as they were.
 */

export interface SetArgs {
  /** Options turned on or off, by `set -o` name or by letter (the letter as given). */
  changes: { letter?: string; name?: string; on: boolean }[];
  /** The new positional parameters, as indexes into the arguments; null when `set` leaves them. */
  positional: number | null;
}

/**
 * `set [-+abefhkmnptuvxBCEHPT] [-+o name] [--] [arg ...]`. Each `o` in an option word takes the
 * next argument as its name, unless there is none or it starts with `-`/`+` (then `set -o`
 * lists the options). `--` ends the options; `-` ends them too (and turns off -x and -v). Any
 * other word ends them and starts the positional parameters; `set --` alone clears them.
 */
export function parseSet(args: readonly string[]): SetArgs {
  const changes: SetArgs['changes'] = [];
  for (let i = 0; i < args.length; i++) {
    const v = args[i]!;
    if (v === '--') return { changes, positional: i + 1 };
    if (v === '-') {
      changes.push({ letter: 'x', on: false }, { letter: 'v', on: false });
      return { changes, positional: i + 1 < args.length ? i + 1 : null };
    }
    if (v.length < 2 || (v[0] !== '-' && v[0] !== '+')) return { changes, positional: i };
    const on = v[0] === '-';
    for (const letter of v.slice(1)) {
      if (letter !== 'o') {
        changes.push({ letter, on });
        continue;
      }
      const name = args[i + 1];
      if (name === undefined || name === '' || name[0] === '-' || name[0] === '+') continue;
      changes.push({ name, on });
      i++;
    }
  }
  return { changes, positional: null };
}

export interface ShoptArgs {
  /** `-s` (true), `-u` (false), or null: nothing is changed (`shopt`, `shopt -p`, `shopt -q`, both -s and -u). */
  on: boolean | null;
  /** `-o`: the names are `set -o` options. */
  setO: boolean;
  names: string[];
}

/** `shopt [-pqsu] [-o] [optname ...]`: option letters combine (`-so`), `--` ends them. */
export function parseShopt(args: readonly string[]): ShoptArgs {
  let s = false;
  let u = false;
  let setO = false;
  let i = 0;
  for (; i < args.length; i++) {
    const v = args[i]!;
    if (v === '--') {
      i++;
      break;
    }
    if (v.length < 2 || v[0] !== '-') break;
    // An unknown letter is an error: bash changes nothing.
    if (![...v.slice(1)].every((c) => 'psuoq'.includes(c))) return { on: null, setO: false, names: [] };
    if (v.includes('s')) s = true;
    if (v.includes('u')) u = true;
    if (v.includes('o')) setO = true;
  }
  return { on: s === u ? null : s, setO, names: args.slice(i) };
}
