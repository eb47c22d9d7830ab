/** Scanning past quoted text and substitutions the way bash's lexer does (for the repairs: ./recover.ts). */

/** After an opening `"` at `i`: the offset after its closing quote (substitutions skipped), or -1. */
export function skipDouble(s: string, i: number): number {
  while (i < s.length) {
    if (s[i] === '\\') i += 2;
    else if (s[i] === '"') return i + 1;
    else if (s[i] === '$' && (s[i + 1] === '(' || s[i + 1] === '{')) {
      const j = skipNested(s, i);
      if (j < 0) return -1;
      i = j;
    } else if (s[i] === '`') {
      const j = skipBackquote(s, i + 1);
      if (j < 0) return -1;
      i = j;
    } else i++;
  }
  return -1;
}

/** After an opening backquote at `i`: the offset after its closing one, or -1. */
export function skipBackquote(s: string, i: number): number {
  while (i < s.length) {
    if (s[i] === '\\') i += 2;
    else if (s[i] === '`') return i + 1;
    else i++;
  }
  return -1;
}

/** At `$` followed by `{` or `(`: the offset after the matching close (quotes respected). */
export function skipNested(s: string, i: number): number {
  const open = s[i + 1];
  if (open !== '{' && open !== '(') return i + 1;
  const close = open === '{' ? '}' : ')';
  let depth = 0;
  i += 1;
  while (i < s.length) {
    const c = s[i]!;
    if (c === '\\') i += 2;
    else if (c === "'" && open === '(') {
      const j = s.indexOf("'", i + 1);
      if (j < 0) return -1;
      i = j + 1;
    } else if (c === '"') {
      const j = skipDouble(s, i + 1);
      if (j < 0) return -1;
      i = j;
    } else {
      if (c === open) depth++;
      else if (c === close && --depth === 0) return i + 1;
      i++;
    }
  }
  return -1;
}
