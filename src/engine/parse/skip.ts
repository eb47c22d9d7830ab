/** Scanning past quoted text and substitutions the way bash's lexer does (for the repairs: ./recover.ts, ./patterns.ts). */

/** After an opening `"` at `i`: the offset after its closing quote (substitutions skipped), or -1. */
export function skipDouble(s: string, i: number): number {
  return scan(s, i, '"');
}

/** After an opening backquote at `i`: the offset after its closing one, or -1. */
export function skipBackquote(s: string, i: number): number {
  return scan(s, i, '`');
}

/**
 * At `$` followed by `{` or `(` (or any character before one of them): the offset after the
 * matching close, or -1. Quotes, backquotes and nested substitutions inside are skipped whole, so a
 * bracket inside them does not count; single quotes are quotes only inside `(`.
 */
export function skipNested(s: string, i: number): number {
  const open = s[i + 1];
  if (open !== '{' && open !== '(') return i + 1;
  return scan(s, i + 2, open);
}

/** At a `"`, a backquote or a `$`: the offset after the quoted text or substitution it opens (-1 unterminated). */
export function skipQuoted(s: string, i: number): number {
  const c = s[i];
  if (c === '"') return skipDouble(s, i + 1);
  if (c === '`') return skipBackquote(s, i + 1);
  return skipNested(s, i);
}

type Kind = '"' | '`' | '(' | '{';

/**
 * From `i`, just inside an opened `kind`: the offset after the close that matches it, or -1. An
 * explicit stack rather than recursion, so input nested thousands deep costs memory, not the stack.
 */
function scan(s: string, i: number, kind: Kind): number {
  const kinds: Kind[] = [kind];
  const depths: number[] = [1];
  const opens = (j: number) => s[j] === '$' && (s[j + 1] === '(' || s[j + 1] === '{');
  while (i < s.length) {
    const top = kinds[kinds.length - 1]!;
    const c = s[i]!;
    let closed = false;
    if (c === '\\') i += 2;
    else if (top === '`') {
      closed = c === '`';
      i++;
    } else if (top === '"') {
      if (c === '"') closed = true;
      else if (c === '`') kinds.push('`'), depths.push(1);
      else if (opens(i)) kinds.push(s[++i] as Kind), depths.push(1);
      i++;
    } else if (c === "'" && top === '(') {
      const j = s.indexOf("'", i + 1);
      if (j < 0) return -1;
      i = j + 1;
    } else {
      if (c === '"' || c === '`') kinds.push(c), depths.push(1);
      else if (opens(i)) kinds.push(s[++i] as Kind), depths.push(1);
      else if (c === top) depths[depths.length - 1]!++;
      else if (c === (top === '(' ? ')' : '}')) closed = --depths[depths.length - 1]! === 0;
      i++;
    }
    if (closed) {
      kinds.pop();
      depths.pop();
      if (kinds.length === 0) return i;
    }
  }
  return -1;
}
