// Whether an unreachable-code note (BG0005) that covers a canary says something true. A canary sits
// at the top level of its file, so what makes it dead is a top-level command before it that always
// ends the script. Three forms of reason are checked, each from the text with bash's own parser as
// the judge of structure, nothing run:
//   after `exit` on line N                          (also `exec`)
//   every path through the `if` on line N exits     (also `case`)
//   `f` (line L) exits on every path (called on line C)
// "Top level" means: the line starts at column 0, the lines before it are complete commands (bash -n
// accepts them silently) and the line before does not continue into it. "Always exits" is read from
// `declare -f`'s normal form of the code (one command per line, four spaces per level): a block
// exits when one of its commands does and no `return`, `break` or `continue` comes first; `exit`/`exec CMD` does; an `if` with an `else` does when
// every branch does; a `case` with a `*)` arm does when every arm does; a call of a function
// defined once at the top level before it does when its body does. Anything else (a subshell, a
// pipeline, a here-document) is not proven, so the reason is not
// counted: the check can say "unverified" about a true reason, never "true" about a false one.
import { spawnSync } from 'node:child_process';

const blank = (l) => /^\s*(#.*)?$/.test(l);
const continues = (l) => /(\\|&&|\|\||\|)\s*$/.test(l);

function bashComplete(text) {
  const r = spawnSync('bash', ['-O', 'extglob', '-n'], { input: text + '\n', encoding: 'utf8' });
  return r.status === 0 && r.stderr === '';
}

/** Line n (1-based) starts a top-level command. */
function topLevel(lines, n) {
  const line = lines[n - 1] ?? '';
  if (/^\s/.test(line) || line === '') return false;
  const prev = lines.slice(0, n - 1).reverse().find((l) => !blank(l)) ?? '';
  return !continues(prev) && bashComplete(lines.slice(0, n - 1).join('\n'));
}

/** The last line (1-based) of the complete command starting at line n, or null. */
function commandEnd(lines, n, limit) {
  for (let m = n; m <= Math.min(lines.length, n + 400, limit); m++) if (bashComplete(lines.slice(n - 1, m).join('\n'))) return m;
  return null;
}

/** `declare -f` of a function wrapping the text (defined, never called): its body lines, or null. */
function normalForm(text) {
  const r = spawnSync('bash', ['-O', 'extglob', '-c', '__canary_wrap() {\n' + text + '\n}\ndeclare -f __canary_wrap'], { encoding: 'utf8' });
  if (r.status !== 0 || r.stderr !== '') return null;
  const out = r.stdout.split('\n');
  const start = out.indexOf('{ ');
  const end = out.lastIndexOf('}');
  if (start < 0 || end <= start) return null;
  const body = out.slice(start + 1, end);
  // Multi-line words (strings, here-documents) break the one-command-a-line form: not judged.
  if (body.some((l) => /<</.test(l) || !/^( {4})+\S/.test(l))) return null;
  return body;
}

const indentOf = (l) => l.length - l.trimStart().length;
const EXITS = /^(exit(\s+[^|&;<>()]*)?|exec\s+(-[acl]+\s+)*[^\s<>&0-9-][^|&;()]*);?$/;

/** Splits a block (lines at `indent` and deeper) into its commands' line groups. */
function commands(block, indent) {
  const out = [];
  for (const l of block) {
    const closing = /^(else|elif |fi\b|esac\b|done\b|\}|;;)/.test(l.trim());
    if (indentOf(l) === indent && !closing) out.push([l]);
    else if (out.length > 0) out[out.length - 1].push(l);
    else return null;
  }
  return out;
}

/** Whether a block at `indent` ends the script on every path (see the header). */
export function alwaysExits(block, indent, ctx = null) {
  const cmds = commands(block, indent);
  if (!cmds) return false;
  // A `return`, `break` or `continue` before the exit (or inside the command) may leave first.
  for (const c of cmds) {
    // (A loop's own `break`/`continue` stay inside it; `break 2` may not.)
    const leaves = /^(while|until|for|select) /.test(c[0].trim()) ? /(^|[\s;&|(])(return\b|(break|continue)\s+[2-9])/ : /(^|[\s;&|(])(return|break|continue)\b/;
    if (c.some((l) => leaves.test(l))) return false;
    if (commandExits(c, indent, ctx)) return true;
  }
  return false;
}

function commandExits(c, indent, ctx) {
  const head = c[0].trim();
  if (c.length === 1) return EXITS.test(head) || callExits(head, ctx);
  const at = (l) => indentOf(l) === indent;
  if (/^if .*; then$/.test(head)) {
    if (!(at(c.at(-1)) && /^fi;?$/.test(c.at(-1).trim()))) return false;
    const branches = [];
    let cur = [];
    let hasElse = false;
    for (const l of c.slice(1, -1)) {
      if (at(l) && /^(elif .*; then|else)$/.test(l.trim())) {
        branches.push(cur);
        cur = [];
        if (l.trim() === 'else') hasElse = true;
      } else cur.push(l);
    }
    branches.push(cur);
    return hasElse && branches.every((b) => alwaysExits(b, indent + 4, ctx));
  }
  if (/^case .* in $/.test(c[0].trimStart()) || /^case .* in$/.test(head)) {
    if (!(at(c.at(-1)) && /^esac;?$/.test(c.at(-1).trim()))) return false;
    const arms = [];
    for (const l of c.slice(1, -1)) {
      if (indentOf(l) === indent + 4 && l.trim().endsWith(')')) arms.push({ pattern: l.trim(), body: [] });
      else if (indentOf(l) === indent + 4 && l.trim() === ';;') continue;
      else if (arms.length > 0 && indentOf(l) >= indent + 8) arms.at(-1).body.push(l);
      else return false;
    }
    return arms.some((a) => a.pattern === '*)') && arms.every((a) => alwaysExits(a.body, indent + 8, ctx));
  }
  return false;
}

/** Whether the note's reason holds for the canary on line `canaryLine` of `source` (see the header). */
export function reasonHolds(note, source, canaryLine) {
  const lines = source.split('\n');
  let m = /after `(exit|exec)[^`]*` on line (\d+)/.exec(note.message);
  if (m) {
    const n = Number(m[2]);
    const line = lines[n - 1] ?? '';
    const prev = lines.slice(0, n - 1).reverse().find((l) => !blank(l)) ?? '';
    if (n >= canaryLine || continues(prev) || !new RegExp(`^(${m[1]}\\b|.*;\\s*${m[1]}\\b)`).test(line)) return false;
    return bashComplete(lines.slice(0, n).join('\n'));
  }
  m = /every path through the `(if|case)` on line (\d+) exits/.exec(note.message);
  if (m) {
    const n = Number(m[2]);
    if (n >= canaryLine || !lines[n - 1]?.startsWith(m[1]) || !topLevel(lines, n)) return false;
    const end = commandEnd(lines, n, canaryLine - 1);
    const body = end === null ? null : normalForm(lines.slice(n - 1, end).join('\n'));
    return body !== null && alwaysExits(body, 4, { lines, before: n, visiting: new Set() });
  }
  m = /`([A-Za-z_][\w:.-]*)` \(line (\d+)\) exits on every path \(called on line (\d+)\)/.exec(note.message);
  if (m) {
    const [name, def, call] = [m[1], Number(m[2]), Number(m[3])];
    if (!(def < call && call < canaryLine) || !topLevel(lines, call)) return false;
    const ctx = { lines, before: call, visiting: new Set() };
    return callExits(lines[call - 1].trimEnd(), ctx, name, def);
  }
  return false;
}

const escape = (name) => name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Whether a simple command (one normal-form line) is a call of a function of the file that exits
 * on every path: defined once, at the top level, before line `ctx.before` (so defined when called).
 */
function callExits(line, ctx, expected, expectedDef) {
  if (!ctx || ctx.visiting.size > 6) return false;
  // A simple command: its words, quotes taken out, hold no operator (its arguments' values do not
  // matter: every branch of the body must exit, whatever they are).
  const bare = line.trim().replace(/'[^']*'|"(\\.|[^"\\])*"/g, '""');
  const cm = /^([A-Za-z_][\w:.-]*)(\s+[^|&;<>()`]*)?;?$/.exec(bare);
  if (!cm || (expected !== undefined && cm[1] !== expected) || ctx.visiting.has(cm[1])) return false;
  const name = cm[1];
  const defines = new RegExp(`^\\s*(function\\s+${escape(name)}\\b|${escape(name)}\\s*\\(\\s*\\))`);
  const defs = [];
  ctx.lines.forEach((l, i) => {
    if (defines.test(l)) defs.push(i + 1);
  });
  // Defined once: another definition would make the call run other code.
  if (defs.length !== 1 || defs[0] >= ctx.before || (expectedDef !== undefined && defs[0] !== expectedDef) || !topLevel(ctx.lines, defs[0])) return false;
  const end = commandEnd(ctx.lines, defs[0], ctx.before - 1);
  const body = end === null ? null : normalForm(ctx.lines.slice(defs[0] - 1, end).join('\n'));
  if (body === null || !new RegExp(`^    (function )?${escape(name)} \\(\\) $`).test(body[0] ?? '') || body[1] !== '    { ') return false;
  const close = body.indexOf('    }', 2);
  if (close < 0) return false;
  ctx.visiting.add(name);
  try {
    return alwaysExits(body.slice(2, close), 8, ctx);
  } finally {
    ctx.visiting.delete(name);
  }
}
