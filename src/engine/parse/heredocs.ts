/**
 * Here-documents as bash reads them. tree-sitter-bash's scanner ends a heredoc body at any line
 * that *starts* with the delimiter after optional white space (`  EOF`, `EOF `, `EOFX`, all wrong
 * for bash) and rejects a body that runs to the end of the input, which bash runs (with a
 * warning). This module finds each heredoc the way bash does so ./recover.ts can hand the
 * grammar a corrected text:
 *
 * - the operator `<<` / `<<-` is found by a small lexer that knows what hides it (quotes,
 *   comments, `$(( ))`, `(( ))`, `$[ ]`, `${ }`, backquotes, here-strings `<<<`);
 * - bodies are read at the next newline token, in order, one pending heredoc after another;
 * - a body ends at the first line that is exactly the delimiter (after quote removal); with `<<-`
 *   leading TABs are stripped first (TABs only); in an unquoted heredoc a backslash-newline joins
 *   lines before the comparison; with no such line the body runs to the end of the input.
 *
 * The same lexer reports each empty command substitution `` `` ``, which the grammar lexes as
 * one token that glues the words around it together.
 *
 * Anything the lexer is not sure about makes it give up (null): the caller then keeps the
 * grammar's own reading, which is never worse than today.
 */

export interface BashHeredoc {
  /** Offset of `<<`. */
  op: number;
  stripTabs: boolean;
  /** The delimiter word as written (`'EOF'`, `"E"OF`, `\EOF`). */
  wordStart: number;
  wordEnd: number;
  /** The delimiter after quote removal: what a line must equal. */
  delimiter: string;
  /** Any quoting in the word: the body is literal text (no expansion, no line joining). */
  quoted: boolean;
  /** First offset of the body (a line start). */
  bodyStart: number;
  /** Where the body ends: the start of the delimiter line, or the end of the input. */
  bodyEnd: number;
  /** End of the delimiter line (before its newline); equal to bodyEnd when unterminated. */
  lineEnd: number;
  terminated: boolean;
}

class GiveUp extends Error {}

const META = new Set([' ', '\t', '\n', ';', '&', '|', '(', ')', '<', '>']);

/** Every heredoc of `src` as bash reads it, in source order; null when the lexer cannot tell. */
export function scanHeredocs(src: string): BashHeredoc[] | null {
  return scanSource(src)?.heredocs ?? null;
}

export interface SourceScan {
  heredocs: BashHeredoc[];
  /** Offsets of each `` `` `` (an empty command substitution) in code or double quotes. */
  emptyBackquotes: number[];
}

/** Heredocs and empty backquote pairs as bash lexes them; null when the lexer cannot tell. */
export function scanSource(src: string): SourceScan | null {
  if (!src.includes('<<') && !src.includes('``')) return { heredocs: [], emptyBackquotes: [] };
  try {
    const lexer = new Lexer(src);
    return { heredocs: lexer.run(), emptyBackquotes: lexer.emptyBackquotes };
  } catch (e) {
    if (e instanceof GiveUp) return null;
    throw e;
  }
}

interface Pending extends Omit<BashHeredoc, 'bodyStart' | 'bodyEnd' | 'lineEnd' | 'terminated'> {
  depth: number;
}

class Lexer {
  readonly out: BashHeredoc[] = [];
  readonly emptyBackquotes: number[] = [];
  pending: Pending[] = [];
  constructor(readonly s: string) {}

  run(): BashHeredoc[] {
    const end = this.code(0, 0);
    if (end < this.s.length) throw new GiveUp(); // an unbalanced `)` closed nothing: not sure
    // Heredocs still pending at the end of the input: bash warns and runs them with empty bodies.
    for (const p of this.pending) this.out.push(this.finish(p, this.s.length, this.s.length, this.s.length, false));
    this.pending = [];
    return this.out.sort((a, b) => a.op - b.op);
  }

  finish(p: Pending, bodyStart: number, bodyEnd: number, lineEnd: number, terminated: boolean): BashHeredoc {
    const { depth: _depth, ...rest } = p;
    return { ...rest, bodyStart, bodyEnd, lineEnd, terminated };
  }

  /**
   * Shell code from `i` up to the `)` that closes a `$(`/`<(` (depth > 0) or the end of the input.
   * Returns the offset after the closing `)`.
   */
  code(i: number, depth: number): number {
    const s = this.s;
    let parens = 0;
    let wordStart = true;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') {
        i += 2;
        wordStart = false;
        continue;
      }
      if (c === "'") {
        i = this.single(i + 1);
        wordStart = false;
        continue;
      }
      if (c === '"') {
        i = this.double(i + 1, depth);
        wordStart = false;
        continue;
      }
      if (c === '`') {
        i = this.backquote(i + 1);
        wordStart = false;
        continue;
      }
      if (c === '$') {
        i = this.dollar(i, depth);
        wordStart = false;
        continue;
      }
      if (c === '#' && wordStart) {
        while (i < s.length && s[i] !== '\n') i++;
        continue;
      }
      if (c === '\n') {
        i = this.bodies(i, depth);
        wordStart = true;
        continue;
      }
      if (c === '(' && s[i + 1] === '(') {
        // `(( expr ))`: arithmetic, where `<<` is a shift.
        i = this.arith(i + 2, 2);
        wordStart = false;
        continue;
      }
      if (c === '<' && s[i + 1] === '<') {
        if (s[i + 2] === '<') {
          i += 3;
          wordStart = true;
          continue;
        }
        i = this.operator(i, depth);
        wordStart = true;
        continue;
      }
      if (depth > 0) {
        if (c === '(') parens++;
        else if (c === ')') {
          if (parens === 0) {
            if (this.pending.some((p) => p.depth === depth)) throw new GiveUp();
            return i + 1;
          }
          parens--;
        } else if (wordStart && s.startsWith('case', i) && META.has(s[i + 4] ?? ' ')) {
          // A case pattern's lone `)` would end the substitution early: not sure.
          throw new GiveUp();
        }
      }
      wordStart = META.has(c);
      i++;
    }
    if (depth > 0) throw new GiveUp();
    return i;
  }

  single(i: number): number {
    const j = this.s.indexOf("'", i);
    if (j < 0) throw new GiveUp();
    return j + 1;
  }

  /** `$'...'`: backslash escapes a quote. */
  ansi(i: number): number {
    const s = this.s;
    while (i < s.length) {
      if (s[i] === '\\') i += 2;
      else if (s[i] === "'") return i + 1;
      else i++;
    }
    throw new GiveUp();
  }

  double(i: number, depth: number): number {
    const s = this.s;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') i += 2;
      else if (c === '"') return i + 1;
      else if (c === '`') i = this.backquote(i + 1);
      // `$'` and `$"` are no quotes inside double quotes (`"$'"` is two characters).
      else if (c === '$' && (s[i + 1] === "'" || s[i + 1] === '"')) i++;
      else if (c === '$') i = this.dollar(i, depth);
      else i++;
    }
    throw new GiveUp();
  }

  backquote(i: number): number {
    const s = this.s;
    const start = i;
    while (i < s.length) {
      if (s[i] === '\\') i += 2;
      else if (s[i] === '`') {
        const inner = s.slice(start, i);
        if (inner === '') this.emptyBackquotes.push(start - 1);
        // Heredocs inside backquotes, or a newline while heredocs wait: bash's rules get odd.
        if (/<<(?!<)/.test(inner) || (inner.includes('\n') && this.pending.length > 0)) throw new GiveUp();
        return i + 1;
      } else i++;
    }
    throw new GiveUp();
  }

  /** At a `$`: returns the offset after what it starts. */
  dollar(i: number, depth: number): number {
    const s = this.s;
    const n = s[i + 1];
    // `$$` (the shell's PID) is one parameter: its second `$` starts nothing (`"$$"`).
    if (n === '$') return i + 2;
    if (n === "'") return this.ansi(i + 2);
    if (n === '"') return this.double(i + 2, depth);
    if (n === '(' && s[i + 2] === '(') return this.arith(i + 3, 2);
    if (n === '(') return this.code(i + 2, depth + 1);
    if (n === '{') return this.param(i + 2, depth);
    if (n === '[') return this.arith(i + 2, 1, '[', ']');
    return i + 1;
  }

  /** `${ ... }` up to its closing brace (quotes and nested expansions respected). */
  param(i: number, depth: number): number {
    const s = this.s;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') i += 2;
      else if (c === '}') return i + 1;
      else if (c === "'") i = this.single(i + 1);
      else if (c === '"') i = this.double(i + 1, depth);
      else if (c === '`') i = this.backquote(i + 1);
      else if (c === '$') i = this.dollar(i, depth);
      else if (c === '\n' && this.pending.length > 0) throw new GiveUp();
      else i++;
    }
    throw new GiveUp();
  }

  /** Arithmetic: up to `open` closing brackets at nesting zero. */
  arith(i: number, closers: number, open = '(', close = ')'): number {
    const s = this.s;
    let depth = 0;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') i += 2;
      else if (c === "'") i = this.single(i + 1);
      else if (c === '"') i = this.double(i + 1, 1);
      else if (c === '$' && s[i + 1] !== open) i = this.dollar(i, 1);
      else if (c === '\n' && this.pending.length > 0) throw new GiveUp();
      else {
        if (c === open) depth++;
        else if (c === close) {
          if (depth > 0) depth--;
          else {
            // `))`: both closers in a row (a lone `)` inside `((` is unbalanced: not sure).
            let j = i;
            for (let k = 0; k < closers; k++, j++) if (s[j] !== close) throw new GiveUp();
            return j;
          }
        }
        i++;
      }
    }
    throw new GiveUp();
  }

  /** At `<<` or `<<-`: reads the delimiter word and queues the heredoc. */
  operator(op: number, depth: number): number {
    const s = this.s;
    const stripTabs = s[op + 2] === '-';
    let i = op + (stripTabs ? 3 : 2);
    while (s[i] === ' ' || s[i] === '\t') i++;
    const wordStart = i;
    let delimiter = '';
    let quoted = false;
    while (i < s.length && !META.has(s[i]!)) {
      const c = s[i]!;
      if (c === '\\') {
        if (i + 1 >= s.length || s[i + 1] === '\n') throw new GiveUp();
        delimiter += s[i + 1];
        quoted = true;
        i += 2;
      } else if (c === "'") {
        const j = this.single(i + 1);
        delimiter += s.slice(i + 1, j - 1);
        quoted = true;
        i = j;
      } else if (c === '"') {
        let j = i + 1;
        while (j < s.length && s[j] !== '"') {
          if (s[j] === '\\' && '\\"$`'.includes(s[j + 1] ?? '')) {
            delimiter += s[j + 1];
            j += 2;
          } else if (s[j] === '$' || s[j] === '`' || s[j] === '\n') throw new GiveUp();
          else delimiter += s[j++];
        }
        if (j >= s.length) throw new GiveUp();
        quoted = true;
        i = j + 1;
      } else if (c === '$' && /['"({[]/.test(s[i + 1] ?? '')) {
        throw new GiveUp();
      } else if (c === '`') {
        throw new GiveUp();
      } else {
        delimiter += c;
        i++;
      }
    }
    if (i === wordStart) throw new GiveUp(); // `<<` with no word: a syntax error in bash
    this.pending.push({ op, stripTabs, wordStart, wordEnd: i, delimiter, quoted, depth });
    return i;
  }

  /** At a newline token: reads the bodies of every pending heredoc. Returns where code resumes. */
  bodies(nl: number, depth: number): number {
    if (this.pending.length === 0) return nl + 1;
    if (this.pending.some((p) => p.depth !== depth)) throw new GiveUp();
    const s = this.s;
    let p = nl + 1;
    for (const h of this.pending) {
      const bodyStart = p;
      let done: BashHeredoc | null = null;
      while (!done) {
        if (p >= s.length) {
          done = this.finish(h, bodyStart, s.length, s.length, false);
          break;
        }
        const lineStart = p;
        let line = '';
        let q = p;
        while (q < s.length && s[q] !== '\n') {
          if (!h.quoted && s[q] === '\\' && q + 1 < s.length) {
            if (s[q + 1] === '\n') {
              q += 2;
              continue;
            }
            line += s[q]! + s[q + 1]!;
            q += 2;
            continue;
          }
          line += s[q++];
        }
        const cmp = h.stripTabs ? line.replace(/^\t+/, '') : line;
        if (cmp === h.delimiter) done = this.finish(h, bodyStart, lineStart, q, true);
        p = q < s.length ? q + 1 : s.length;
      }
      this.out.push(done);
    }
    this.pending = [];
    return p;
  }
}
