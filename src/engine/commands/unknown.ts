/**
 * Closed world: a command the table does not know is never proof of safety. Each path it is
 * given (operands, `--opt=VALUE` values), resolved against the cwd, and the cwd itself when the
 * script moved it, become `unknown-command` effects: `possible` writes that the policy reports
 * only inside a protected region (the main checkout, a sibling worktree, the common git dir), so
 * unknown tools working on the worktree or elsewhere stay silent.
 */
import { HOLE } from '../effects/types.js';
import type { Field } from '../shell/field.js';
import type { CommandContext, Invocation } from './context.js';

const MAX_ARGS = 64;

/** The words of an unknown command that may name a path it writes. */
export function pathArguments(args: Field[]): Field[] {
  const out: Field[] = [];
  let onlyOperands = false;
  for (const a of args) {
    if (out.length >= MAX_ARGS) break;
    const v = a.value;
    if (v === '' || v.startsWith(HOLE)) continue;
    if (!onlyOperands && v === '--') {
      onlyOperands = true;
      continue;
    }
    if (!onlyOperands && v.startsWith('-')) {
      // `--out=DIR`, `-oDIR` is ambiguous (a cluster of flags): only the long form with `=`.
      const eq = v.indexOf('=');
      if (v.startsWith('--') && eq > 2 && eq < v.length - 1) out.push({ ...a, value: v.slice(eq + 1) });
      continue;
    }
    // `NAME=VALUE` operands (make, env-like tools): the value may be a path.
    const assign = /^[A-Za-z_][A-Za-z0-9_]*=(.+)$/.exec(v);
    out.push(assign ? { ...a, value: assign[1]! } : a);
  }
  return out;
}

/** Records what an unknown command (or a program whose code is not analyzed) may write. */
export function unknownCommand(inv: Invocation, interp: CommandContext, args: Field[] = inv.args, label = inv.name): void {
  const opts = { confidenceCap: 'possible' as const };
  for (const f of pathArguments(args)) {
    // An argument that looks like code (`julia -e 'write("/x", ...)'`): the paths it mentions.
    if (/[()'"`;{}]/.test(f.value) && /\s/.test(f.value) && !f.value.includes(HOLE)) codeStrings(inv, interp, f.value, `code given to \`${label}\``, label);
    else interp.write('unknown-command', f, inv.st, inv.range, label, opts);
  }
  // Code read from a known stdin (`tclsh <<EOF`): the paths it mentions.
  if (inv.stdin.kind === 'text' && inv.stdin.known && inv.stdin.text.length < 100_000) codeStrings(inv, interp, inv.stdin.text, `the stdin of \`${label}\``, label);
  // Run from a directory the script moved to: relative writes of the program land there.
  if (inv.st.cwd.changed && inv.st.cwd.paths) {
    interp.write('unknown-command', { value: '.', confidence: 'possible', evidence: [{ range: inv.range, note: `\`${label}\` runs in the cwd the command moved to` }], glob: false }, inv.st, inv.range, label, opts);
  }
}

/**
 * Closed world below the command name: operands and option values a known command's entry does
 * not describe are treated exactly like an unknown command's (a possible write where they resolve
 * into a protected region or control file).
 */
export function unlisted(inv: Invocation, interp: CommandContext, fields: Field[], what = 'an argument its entry does not describe'): void {
  const opts = { confidenceCap: 'possible' as const };
  let n = 0;
  for (const f of fields) {
    const v = f.value;
    if (v === '' || v.startsWith(HOLE) || v.startsWith('-')) continue;
    if (++n > MAX_ARGS) break;
    const assign = /^[A-Za-z_][A-Za-z0-9_]*=(.+)$/.exec(v);
    const field = assign ? { ...f, value: assign[1]! } : f;
    interp.write('unknown-command', { ...field, evidence: [...field.evidence, { range: inv.range, note: `\`${inv.name}\` is given ${v}, ${what}` }] }, inv.st, inv.range, inv.name, opts);
  }
}

const PATH_TOKEN = /(?:^|[\s'"`=(,:[{>])((?:\.\.?\/|\/|~\/)[A-Za-z0-9._@+~/-]*|\.\.)(?=$|[\s'"`),;:\]}<>|&])/g;

/**
 * Code in a language bashguard does not model (or text handed to a program it does not know):
 * every path it mentions (absolute, `./`, `../`, `~/`) that resolves into a protected region or
 * a control file may be written; elsewhere it stays silent, like an unknown command's operands.
 */
export function codeStrings(inv: Invocation, interp: CommandContext, code: string, what: string, label = inv.name): void {
  const seen = new Set<string>();
  for (const m of code.matchAll(PATH_TOKEN)) {
    let p = m[1]!.replace(/[.,;:]+$/, '');
    if (p === '') p = m[1]!;
    if (p.length < 2 && p !== '/') continue;
    if (seen.has(p) || seen.size >= MAX_ARGS) continue;
    seen.add(p);
    const value = p.startsWith('~/') ? (inv.st.vars.get('HOME')?.value ?? HOLE) + p.slice(1) : p;
    interp.write('unknown-command', { value, confidence: 'possible', evidence: [{ range: inv.range, note: `${what} mentions ${p}` }], glob: false }, inv.st, inv.range, label, { confidenceCap: 'possible' });
  }
}
