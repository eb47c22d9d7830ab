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
/**
 * Whether line n (1-based) continues the command of the lines before it: the line right before
 * ends in an unescaped backslash (which joins only the next line, a blank one included), or the
 * last code line before it ends in `&&`, `||` or `|` (bash reads on past blank lines for those).
 */
export function continuesInto(lines, n) {
  const before = lines[n - 2] ?? '';
  if (!/^\s*#/.test(before) && /(^|[^\\])(\\\\)*\\$/.test(before)) return true;
  const prev = lines.slice(0, n - 1).reverse().find((l) => !blank(l)) ?? '';
  return /(&&|\|\||\|)\s*$/.test(prev);
}

function bashComplete(text) {
  const r = spawnSync('bash', ['-O', 'extglob', '-n'], { input: text + '\n', encoding: 'utf8' });
  return r.status === 0 && r.stderr === '';
}

/** Line n (1-based) starts a top-level command. */
function topLevel(lines, n) {
  const line = lines[n - 1] ?? '';
  if (/^\s/.test(line) || line === '') return false;
  return !continuesInto(lines, n) && bashComplete(lines.slice(0, n - 1).join('\n'));
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
  // A quoted string over several lines stays one line of the form (its lines are text, not
  // commands); here-documents and anything else that breaks the one-command-a-line form: not judged.
  const body = joinQuoted(out.slice(start + 1, end));
  if (body === null || body.some((l) => /<</.test(l) || !/^( {4})+\S/.test(l))) return null;
  return body;
}

/**
 * Lines joined where a quote opened on one closes on a later one; null when one never closes or
 * the scan ends inside one.
 */
function joinQuoted(lines) {
  const out = [];
  let stack = [];
  for (const l of lines) {
    if (stack.length === 0) out.push(l);
    else out[out.length - 1] += '\n' + l;
    stack = scanQuotes(l, stack);
  }
  return stack.length === 0 ? out : null;
}

/**
 * The quoting open at the end of `line`, given what was open at its start: a stack of `'`, `"`,
 * `$'`, and `$(` or a backquote (a command substitution, where quotes start afresh).
 */
function scanQuotes(line, open) {
  const stack = open.slice();
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    const top = stack.at(-1);
    if (top === "'") {
      if (c === "'") stack.pop();
    } else if (top === '"' || top === "$'") {
      if (c === '\\') i++;
      else if (c === (top === '"' ? '"' : "'")) stack.pop();
      else if (top === '"' && c === '$' && line[i + 1] === '(') {
        stack.push('$(');
        i++;
      } else if (top === '"' && c === '`') stack.push('`');
    } else if (c === '\\') i++;
    else if (c === '`') {
      if (top === '`') stack.pop();
      else stack.push('`');
    }
    else if (c === "'") stack.push("'");
    else if (c === '"') stack.push('"');
    else if (c === '$' && line[i + 1] === "'") {
      stack.push("$'");
      i++;
    } else if (c === '$' && line[i + 1] === '(') {
      stack.push('$(');
      i++;
    } else if (c === '(' && top === '$(') stack.push('(');
    else if (c === ')' && (top === '$(' || top === '(')) stack.pop();
  }
  return stack;
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
    if (n >= canaryLine || continuesInto(lines, n) || !new RegExp(`^(${m[1]}\\b|.*;\\s*${m[1]}\\b)`).test(line)) return false;
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
