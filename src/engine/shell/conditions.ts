/**
 * `test`, `[` and `[[`: the exit status when it can be decided before the command runs. String
 * tests on known values are decided by their text; file tests on fully known paths by what is on
 * the disk now (the hook runs just before the command), unless the command itself changed that
 * path earlier. Anything else is null: the caller keeps both outcomes.
 */
import { HOLE } from '../effects/types.js';
import type { Field } from '../shell/field.js';

export type Truth = boolean | null;

/** What is at a path (following symlinks): 'missing' when nothing; null when it cannot be told. */
export type FileKind = 'file' | 'directory' | 'other' | 'missing';

export interface TestContext {
  /** The file kind at a path as written (relative paths resolved by the caller), or null. */
  fileKind(path: string): FileKind | null;
  /** `[[ a == pattern ]]`: the right side is a pattern (unquoted glob characters). */
  doubleBracket: boolean;
}

const UNARY_FILE = new Set(['-e', '-a', '-f', '-d', '-b', '-c', '-p', '-S', '-s', '-h', '-L', '-r', '-w', '-x', '-g', '-u', '-k', '-O', '-G', '-N', '-t']);
const BINARY = new Set(['=', '==', '!=', '<', '>', '-eq', '-ne', '-lt', '-le', '-gt', '-ge', '-ef', '-nt', '-ot', '=~']);

function not(t: Truth): Truth {
  return t === null ? null : !t;
}

function and(a: Truth, b: () => Truth): Truth {
  if (a === false) return false;
  const r = b();
  if (r === false) return false;
  return a === true && r === true ? true : null;
}

function or(a: Truth, b: () => Truth): Truth {
  if (a === true) return true;
  const r = b();
  if (r === true) return true;
  return a === false && r === false ? false : null;
}

/** Decides `test ARGS` / `[ ARGS ]` / `[[ ARGS ]]` (already expanded), or null. */
export function evaluateTest(given: Field[], ctx: TestContext): Truth {
  // A guessed value (Field#guessed) may be anything at run time: it decides nothing.
  const args = given.some((f) => f.guessed) ? given.map((f) => (f.guessed ? { ...f, value: HOLE } : f)) : given;
  let i = 0;
  const peek = (k = 0): Field | undefined => args[i + k];
  const v = (f: Field | undefined) => f?.value;
  const orOps = ctx.doubleBracket ? ['||'] : ['-o'];
  const andOps = ctx.doubleBracket ? ['&&'] : ['-a'];
  let failed = false;

  const primary = (): Truth => {
    const a = peek();
    if (!a) {
      failed = true;
      return null;
    }
    if (a.value === '!' && peek(1) !== undefined) {
      i++;
      return not(primary());
    }
    if (a.value === '(' && args.length - i > 2) {
      i++;
      const r = expr();
      if (v(peek()) !== ')') {
        failed = true;
        return null;
      }
      i++;
      return r;
    }
    const b = peek(1);
    const c = peek(2);
    if (b && c && BINARY.has(b.value) && !(andOps.includes(a.value) || orOps.includes(a.value))) {
      i += 3;
      return binary(a, b.value, c);
    }
    if (b && UNARY_FILE.has(a.value) && !(b.value === ')' && args.length - i <= 2)) {
      i += 2;
      return fileTest(a.value, b);
    }
    if (b && (a.value === '-n' || a.value === '-z')) {
      i += 2;
      const n = nonEmpty(b);
      return a.value === '-n' ? n : not(n);
    }
    // A single word: true when it is not empty.
    i++;
    return nonEmpty(a);
  };

  const andExpr = (): Truth => {
    let r = primary();
    while (andOps.includes(v(peek()) ?? '')) {
      i++;
      const left = r;
      r = and(left, primary);
    }
    return r;
  };

  const expr = (): Truth => {
    let r = andExpr();
    while (orOps.includes(v(peek()) ?? '')) {
      i++;
      const left = r;
      r = or(left, andExpr);
    }
    return r;
  };

  const binary = (a: Field, op: string, b: Field): Truth => {
    if (a.value.includes(HOLE) || b.value.includes(HOLE)) return null;
    switch (op) {
      case '=':
      case '==':
      case '!=': {
        // In `[[ ]]` an unquoted right side is a pattern.
        if (ctx.doubleBracket && b.glob) return null;
        const eq = a.value === b.value;
        return op === '!=' ? !eq : eq;
      }
      case '-eq':
      case '-ne':
      case '-lt':
      case '-le':
      case '-gt':
      case '-ge': {
        if (!/^\s*-?\d+\s*$/.test(a.value) || !/^\s*-?\d+\s*$/.test(b.value)) return null;
        const x = Number(a.value);
        const y = Number(b.value);
        return op === '-eq' ? x === y : op === '-ne' ? x !== y : op === '-lt' ? x < y : op === '-le' ? x <= y : op === '-gt' ? x > y : x >= y;
      }
      default:
        return null;
    }
  };

  const fileTest = (op: string, f: Field): Truth => {
    if (f.value.includes(HOLE) || f.glob || f.value === '') return f.value === '' && op !== '-t' ? false : null;
    const kind = ctx.fileKind(f.value);
    if (kind === null) return null;
    switch (op) {
      case '-e':
      case '-a':
        return kind !== 'missing';
      case '-f':
        return kind === 'file';
      case '-d':
        return kind === 'directory';
      default:
        // Permissions, sizes, symlinks: only "missing" decides them (a test on nothing fails).
        return kind === 'missing' ? false : null;
    }
  };

  const r = args.length === 0 ? false : expr();
  if (failed || i !== args.length) return null;
  return r;
}

function nonEmpty(f: Field): Truth {
  const known = f.value.split(HOLE).join('');
  if (known.length > 0) return true;
  return f.value.includes(HOLE) ? null : false;
}
