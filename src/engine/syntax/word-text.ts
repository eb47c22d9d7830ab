/**
 * The text of a word's pieces as bash reads it: backslash escapes, a leading tilde, quotes in a
 * pattern, the escapes of double quotes and of `$'...'`. Pure string functions, no tree.
 */
import type { WordPart } from './ir.js';

/** An unquoted word's text: backslash escapes, a leading tilde, line continuations. */
export function unquotedParts(raw: string, atStart: boolean): WordPart[] {
  const parts: WordPart[] = [];
  let i = 0;
  if (atStart && raw.startsWith('~')) {
    const m = /^~([A-Za-z0-9._-]*|[+-])(?=\/|$)/.exec(raw);
    if (m) {
      parts.push({ kind: 'tilde', user: m[1]! });
      i = m[0].length;
    }
  }
  // Without a backslash the rest is one text part (most words): no copy character by character.
  if (raw.indexOf('\\', i) < 0) {
    if (i < raw.length) parts.push({ kind: 'text', value: i === 0 ? raw : raw.slice(i), quoting: 'none' });
    return parts;
  }
  let buf = '';
  const flush = () => {
    if (buf) parts.push({ kind: 'text', value: buf, quoting: 'none' });
    buf = '';
  };
  for (; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === '\\' && i + 1 < raw.length) {
      const next = raw[i + 1]!;
      i++;
      if (next === '\n') continue;
      flush();
      parts.push({ kind: 'text', value: next, quoting: 'escape' });
      continue;
    }
    buf += ch;
  }
  flush();
  return parts;
}

/**
 * A pattern the grammar leaves as one token (`${x#PAT}`, `${x/PAT/r}`, `[[ s =~ PAT ]]`), read as
 * bash reads it: single quotes, double quotes and backslash escapes give literal parts, `$'..'`
 * decoded text, and `$name`, `${name}`, `${a[1]}`, `$1`, `$@` ... parameters, also inside double
 * quotes (a subscript only without expansions or quotes).
 * Null for what only the parser can read (a command substitution, `${x...}` with an operator)
 * and for an unclosed quote.
 */
export function patternParts(raw: string): WordPart[] | null {
  const parts: WordPart[] = [];
  let buf = '';
  const flush = () => {
    if (buf) parts.push({ kind: 'text', value: buf, quoting: 'none' });
    buf = '';
  };
  /** A parameter at raw[i] === '$': its length, or 0 when `$` is literal there, -1 when it cannot be read. */
  const param = (i: number, quoted: boolean): number => {
    const rest = raw.slice(i + 1);
    const m = /^(?:([A-Za-z_][A-Za-z0-9_]*|[0-9@*#?$!-])|\{([A-Za-z_][A-Za-z0-9_]*(?:\[[^\]$`{}'"\\]*\])?|[0-9]+|[@*#?$!-])\})/.exec(rest);
    if (m) {
      parts.push({ kind: 'param', name: m[1] ?? m[2]!, op: null, arg: null, quoted, text: '$' + m[0] });
      return 1 + m[0].length;
    }
    return rest.startsWith('(') || rest.startsWith('{') || rest.startsWith('[') ? -1 : 0;
  };
  for (let i = 0; i < raw.length; i++) {
    const ch = raw[i]!;
    if (ch === "'") {
      const j = raw.indexOf("'", i + 1);
      if (j < 0) return null;
      flush();
      parts.push({ kind: 'text', value: raw.slice(i + 1, j), quoting: 'single' });
      i = j;
    } else if (ch === '"') {
      let j = i + 1;
      let text = '';
      const done = () => {
        if (text) parts.push({ kind: 'text', value: text, quoting: 'double' });
        text = '';
      };
      flush();
      for (; j < raw.length && raw[j] !== '"'; j++) {
        const c = raw[j]!;
        if (c === '`') return null;
        if (c === '\\' && j + 1 < raw.length) {
          const next = raw[++j]!;
          text += /[$`"\\\n]/.test(next) ? (next === '\n' ? '' : next) : c + next;
        } else if (c === '$') {
          done();
          const n = param(j, true);
          if (n < 0) return null;
          if (n === 0) text += c;
          else j += n - 1;
        } else text += c;
      }
      if (j >= raw.length) return null;
      done();
      if (j === i + 1) parts.push({ kind: 'text', value: '', quoting: 'double' });
      i = j;
    } else if (ch === '\\' && i + 1 < raw.length) {
      flush();
      parts.push({ kind: 'text', value: raw[++i]!, quoting: 'escape' });
    } else if (ch === '`') {
      return null;
    } else if (ch === '$' && raw[i + 1] === "'") {
      let j = i + 2;
      for (; j < raw.length && raw[j] !== "'"; j++) if (raw[j] === '\\') j++;
      if (j >= raw.length) return null;
      flush();
      parts.push({ kind: 'text', value: decodeAnsiC(raw.slice(i + 2, j)), quoting: 'ansi-c' });
      i = j;
    } else if (ch === '$') {
      flush();
      const n = param(i, false);
      if (n < 0) return null;
      if (n === 0) buf += ch;
      else i += n - 1;
    } else buf += ch;
  }
  flush();
  return parts;
}

/** Joins neighbouring text parts of the same quoting. */
export function mergeText(parts: WordPart[]): WordPart[] {
  const out: WordPart[] = [];
  for (const p of parts) {
    const prev = out[out.length - 1];
    if (p.kind === 'text' && prev?.kind === 'text' && prev.quoting === p.quoting) {
      out[out.length - 1] = { ...prev, value: prev.value + p.value };
    } else out.push(p);
  }
  return out;
}

/** Inside double quotes, a backslash escapes only `$`, backquote, `"`, `\` and newline. */
export function unescapeDouble(s: string): string {
  return s.replace(/\\([$`"\\\n])/g, (_m, c: string) => (c === '\n' ? '' : c));
}

/** Decodes the body of `$'...'` the way bash does. */
export function decodeAnsiC(s: string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i]!;
    if (ch !== '\\' || i + 1 >= s.length) {
      out += ch;
      continue;
    }
    const e = s[++i]!;
    const simple: Record<string, string> = {
      n: '\n', t: '\t', r: '\r', a: '\x07', b: '\b', e: '\x1b', E: '\x1b', f: '\f', v: '\v',
      '\\': '\\', "'": "'", '"': '"', '?': '?',
    };
    if (e in simple) {
      out += simple[e];
    } else if (e === 'x') {
      const m = /^[0-9a-fA-F]{1,2}/.exec(s.slice(i + 1));
      if (m) {
        out += String.fromCharCode(parseInt(m[0], 16));
        i += m[0].length;
      } else out += '\\x';
    } else if (e === 'u' || e === 'U') {
      const m = (e === 'u' ? /^[0-9a-fA-F]{1,4}/ : /^[0-9a-fA-F]{1,8}/).exec(s.slice(i + 1));
      if (m) {
        const cp = parseInt(m[0], 16);
        out += cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
        i += m[0].length;
      } else out += '\\' + e;
    } else if (/[0-7]/.test(e)) {
      const m = /^[0-7]{1,3}/.exec(s.slice(i))!;
      out += String.fromCharCode(parseInt(m[0], 8) & 0xff);
      i += m[0].length - 1;
    } else if (e === 'c' && i + 1 < s.length) {
      out += String.fromCharCode(s.charCodeAt(++i) & 0x1f);
    } else {
      out += '\\' + e;
    }
  }
  return out;
}

/**
 * Tilde prefixes bash expands inside an assignment: after each unquoted `:` of a value
 * (`PATH=a:~/bin`), and, in a word shaped like an assignment given to a command (`dd of=~/x`,
 * outside POSIX mode), after its first `=` too. A prefix runs to a `/`, a `:` or the word's end
 * within one unquoted text part (a quoted or expanded character makes it no prefix).
 * `assignmentWord`: the parts are a whole `NAME=value` word; else they are a value alone.
 */
export function assignmentTildes(parts: WordPart[], assignmentWord: boolean): WordPart[] {
  let eqAt = -1;
  const head = parts[0];
  if (assignmentWord) {
    const m = head?.kind === 'text' && head.quoting === 'none' ? /^[A-Za-z_][A-Za-z0-9_]*\+?=/.exec(head.value) : null;
    if (!m) return parts;
    eqAt = m[0].length - 1;
  }
  let changed = false;
  const out: WordPart[] = [];
  let before: string | null = null;
  parts.forEach((p, k) => {
    if (p.kind !== 'text' || p.quoting !== 'none') {
      out.push(p);
      before = null;
      return;
    }
    const v = p.value;
    let from = 0;
    for (let j = v.indexOf('~'); j >= 0; j = v.indexOf('~', j + 1)) {
      const prev = j > 0 ? v[j - 1] : before;
      if (!(prev === ':' || (k === 0 && j - 1 === eqAt))) continue;
      const m = /^~([A-Za-z0-9._-]*|[+-])(?=[/:]|$)/.exec(v.slice(j));
      if (!m || (j + m[0].length === v.length && k < parts.length - 1)) continue;
      if (j > from) out.push({ kind: 'text', value: v.slice(from, j), quoting: 'none' });
      out.push({ kind: 'tilde', user: m[1]! });
      from = j + m[0].length;
      changed = true;
    }
    if (from < v.length) out.push(from === 0 ? p : { kind: 'text', value: v.slice(from), quoting: 'none' });
    before = v.length > 0 ? v[v.length - 1]! : before;
  });
  return changed ? out : parts;
}
