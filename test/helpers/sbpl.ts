/**
 * A reader of the SBPL subset bashguard's Seatbelt enforcement profile uses
 * (src/layers/sandbox/seatbelt.ts): `(version 1)`, `(allow default)`, `(deny file-write*)` (first),
 * `(allow file-write* FILTER)`, `(deny file-write* FILTER)` and
 * `(deny file-write-create file-write-unlink FILTER)` with FILTER
 * one of `(subpath "…")`, `(literal "…")`, `(regex #"…")`, `(require-all F …)`, `(require-not F)`.
 * Anything else is an error, so a profile that grows a
 * form this reader does not know fails the tests instead of being half-read. Used to check the
 * profile's meaning on machines without sandbox-exec, and by the stand-in sandbox-exec that
 * runs a profile under bubblewrap.
 */
type Expr = string | Expr[];

function parse(text: string): Expr[] {
  let i = 0;
  const out: Expr[] = [];
  const skip = () => {
    for (;;) {
      while (i < text.length && /\s/.test(text[i]!)) i++;
      if (text[i] === ';') while (i < text.length && text[i] !== '\n') i++;
      else return;
    }
  };
  const expr = (): Expr => {
    skip();
    if (text[i] === '(') {
      i++;
      const list: Expr[] = [];
      for (;;) {
        skip();
        if (i >= text.length) throw new Error('unclosed (');
        if (text[i] === ')') {
          i++;
          return list;
        }
        list.push(expr());
      }
    }
    if (text[i] === '#' && text[i + 1] === '"') {
      // a regex literal: taken as written up to the next double quote
      const end = text.indexOf('"', i + 2);
      if (end < 0) throw new Error('unclosed regex');
      const src = text.slice(i + 2, end);
      i = end + 1;
      return ['#"', src];
    }
    if (text[i] === '"') {
      i++;
      let s = '';
      while (text[i] !== '"') {
        if (i >= text.length) throw new Error('unclosed string');
        if (text[i] === '\\') i++;
        s += text[i++];
      }
      i++;
      return ['"', s];
    }
    const m = /^[^\s()";]+/.exec(text.slice(i));
    if (!m) throw new Error(`unexpected ${JSON.stringify(text[i])}`);
    i += m[0].length;
    return m[0];
  };
  for (skip(); i < text.length; skip()) out.push(expr());
  return out;
}

export type Filter = { kind: 'subpath' | 'literal'; path: string } | { kind: 'regex'; source: string } | { kind: 'all'; of: Filter[] } | { kind: 'not'; of: Filter };

function str(e: Expr | undefined): string {
  if (!Array.isArray(e) || e[0] !== '"' || typeof e[1] !== 'string') throw new Error(`expected a string, got ${JSON.stringify(e)}`);
  return e[1];
}

function filter(e: Expr): Filter {
  if (!Array.isArray(e)) throw new Error(`expected a filter, got ${e}`);
  const [head, ...rest] = e;
  if ((head === 'subpath' || head === 'literal') && rest.length === 1) return { kind: head, path: str(rest[0]) };
  if (head === 'regex' && rest.length === 1 && Array.isArray(rest[0]) && rest[0][0] === '#"' && typeof rest[0][1] === 'string') return { kind: 'regex', source: rest[0][1] };
  if (head === 'require-all' && rest.length) return { kind: 'all', of: rest.map(filter) };
  if (head === 'require-not' && rest.length === 1) return { kind: 'not', of: filter(rest[0]!) };
  throw new Error(`unknown filter ${JSON.stringify(e)}`);
}

/** The operations a rule names: `file-write*` is all of them. */
export type Op = 'write' | 'create' | 'unlink';
export interface Rule {
  effect: 'allow' | 'deny';
  ops: Op[];
  /** null: every path (`(deny file-write*)`). */
  filter: Filter | null;
}

const ALL_OPS: Op[] = ['write', 'create', 'unlink'];

/** The `file-write*` rules of a profile, in order (all: `readRules`); throws on anything outside the subset. */
export function readProfile(text: string): Rule[] {
  return readRules(text).filter((r) => r.ops.length === 3);
}

/** Every file-write rule of a profile, in order (the last that matches decides); throws on anything outside the subset. */
export function readRules(text: string): Rule[] {
  const forms = parse(text);
  const rules: Rule[] = [];
  let version = false;
  let allowDefault = false;
  for (const f of forms) {
    if (!Array.isArray(f)) throw new Error(`a bare atom at top level: ${f}`);
    if (f[0] === 'version' && f[1] === '1' && f.length === 2) version = true;
    else if (f[0] === 'allow' && f[1] === 'default' && f.length === 2) allowDefault = true;
    else if (f[0] === 'deny' && f[1] === 'file-write*' && f.length === 2) rules.push({ effect: 'deny', ops: ALL_OPS, filter: null });
    else if ((f[0] === 'deny' || f[0] === 'allow') && f[1] === 'file-write*' && f.length === 3) rules.push({ effect: f[0], ops: ALL_OPS, filter: filter(f[2]!) });
    else if (f[0] === 'deny' && f[1] === 'file-write-create' && f[2] === 'file-write-unlink' && f.length === 4) rules.push({ effect: 'deny', ops: ['create', 'unlink'], filter: filter(f[3]!) });
    else throw new Error(`unknown form ${JSON.stringify(f)}`);
  }
  if (!version || !allowDefault) throw new Error('the profile lacks (version 1) or (allow default)');
  if (rules.some((r, i) => r.filter === null && i > 0)) throw new Error('(deny file-write*) after other rules would override them');
  return rules;
}

const inside = (p: string, dir: string) => p === dir || dir === '/' || p.startsWith(dir + '/');

export function matches(f: Filter, path: string): boolean {
  switch (f.kind) {
    case 'subpath':
      return inside(path, f.path);
    case 'literal':
      return path === f.path;
    case 'regex':
      return new RegExp(f.source).test(path);
    case 'all':
      return f.of.every((x) => matches(x, path));
    case 'not':
      return !matches(f.of, path);
  }
}

/** Whether the rules deny `op` on `path`: the last rule that matches decides, none allows (`(allow default)`). Seatbelt checks the path a call names, nothing below it. */
export function deniedOp(rules: Rule[], op: Op, path: string): boolean {
  let d = false;
  for (const r of rules) if (r.ops.includes(op) && (r.filter === null || matches(r.filter, path))) d = r.effect === 'deny';
  return d;
}

/** Whether the profile denies writing `path` (create, write, remove, rename of the path itself). */
export function denied(profile: Rule[], path: string): boolean {
  return deniedOp(profile, 'write', path);
}

/** Whether a rename of `from` to `to` is refused: removing the source's name or creating the destination's. */
export function renameDenied(rules: Rule[], from: string, to: string): boolean {
  return deniedOp(rules, 'unlink', from) || deniedOp(rules, 'create', to);
}
