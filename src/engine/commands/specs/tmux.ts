/**
 * tmux: the client hands each command to the tmux server (tmux(1)), which may have been running
 * long before this call, outside its mount namespace and sandbox. Commands that make the server
 * run shell code (new-session, new-window, split-window, respawn-*, display-popup with a command;
 * run-shell, if-shell, pipe-pane; send-keys typing into a pane; `#()` in a format) are handed to
 * it (daemon.ts). Commands that only list, select or kill are not.
 */
import type { Field } from '../../shell/field.js';
import { parseArgs, hasOption, optionValues } from '../args.js';
import { handOver, shellWords } from '../daemon.js';
import type { CommandContext, Invocation } from '../context.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const ALIASES: Record<string, string> = {
  new: 'new-session', neww: 'new-window', splitw: 'split-window', respawnp: 'respawn-pane', respawnw: 'respawn-window',
  run: 'run-shell', if: 'if-shell', send: 'send-keys', pipep: 'pipe-pane', popup: 'display-popup', source: 'source-file',
  bind: 'bind-key', set: 'set-option', setw: 'set-window-option', confirm: 'confirm-before', menu: 'display-menu',
};

/** Option letters that take a value, per command that runs a shell command (tmux(1) SYNOPSIS lines). */
const VALUES: Record<string, string> = {
  'new-session': 'cefFnstxy',
  'new-window': 'ceFnt',
  'split-window': 'ceFlpt',
  'respawn-pane': 'cet',
  'respawn-window': 'cet',
  'display-popup': 'bcdehsStTwxy',
  'run-shell': 'dt',
  'if-shell': 't',
  'pipe-pane': 't',
  'send-keys': 'Nt',
};

/** Commands that make the server run code later, from text that is not a literal shell command here. */
const LATER = new Set(['source-file', 'bind-key', 'set-hook', 'command-prompt', 'confirm-before', 'display-menu']);

/** Key names send-keys looks up before typing a word as text. */
const KEY = /^(?:Enter|Escape|Tab|BTab|BSpace|Space|Up|Down|Left|Right|Home|End|IC|DC|NPage|PPage|PageUp|PageDown|KP\S*|F\d{1,2}|[CMS]-\S+)$/;

function unquoteSemi(v: string): string | null {
  return v === ';' || v === '\\;' ? null : v;
}

/** The words of each tmux command of one invocation (commands are separated by `;` words). */
function commands(args: Field[]): Field[][] {
  const out: Field[][] = [[]];
  for (const a of args) {
    if (unquoteSemi(a.value) === null) out.push([]);
    else if (a.value.endsWith(';') && !a.value.endsWith('\\;')) {
      out[out.length - 1]!.push({ ...a, value: a.value.slice(0, -1) });
      out.push([]);
    } else out[out.length - 1]!.push(a);
  }
  return out.filter((c) => c.length > 0);
}

/** The text send-keys types: key names that end a line become newlines, other key names a space. */
function typed(keys: Field[], literal: boolean): string {
  return keys.map((k) => (literal || !KEY.test(k.value) ? k.value : /^(?:Enter|C-m|C-j)$/.test(k.value) ? '\n' : ' ')).join('');
}

/** The shell commands inside `#(...)` of a format. */
function formatCommands(v: string): string[] {
  const out: string[] = [];
  for (let i = v.indexOf('#('); i >= 0; i = v.indexOf('#(', i + 2)) {
    let depth = 1;
    let j = i + 2;
    for (; j < v.length && depth > 0; j++) if (v[j] === '(') depth++;
    else if (v[j] === ')') depth--;
    out.push(v.slice(i + 2, depth === 0 ? j - 1 : j));
  }
  return out;
}

function one(words: Field[], inv: Invocation, interp: CommandContext): void {
  const name = ALIASES[words[0]!.value] ?? words[0]!.value;
  const what = `tmux ${name}`;
  const daemon = 'the tmux server';
  const rest = words.slice(1);
  for (const w of rest) for (const code of formatCommands(w.value)) handOver(inv, interp, { daemon, what: `${what} #()`, code, cwd: null });
  if (LATER.has(name) || ((name === 'set-option' || name === 'set-window-option') && rest.some((w) => /^default-(?:command|shell)$/.test(w.value)))) {
    handOver(inv, interp, { daemon, what, code: null, cwd: null });
    return;
  }
  const values = VALUES[name];
  if (values === undefined) return;
  const p = parseArgs(rest, { short: values, stopAtOperand: true });
  const dir = optionValues(p, '-c')[0]?.value;
  const cwd = dir !== undefined && dir.startsWith('/') ? dir : null;
  const ops = p.operands;
  switch (name) {
    case 'send-keys':
      if (hasOption(p, '-X')) return;
      handOver(inv, interp, { daemon, what, code: hasOption(p, '-H') ? null : typed(ops, hasOption(p, '-l')), cwd: null });
      return;
    case 'run-shell':
      if (ops[0]) handOver(inv, interp, { daemon, what, code: hasOption(p, '-C') ? null : ops[0].value, cwd });
      return;
    case 'if-shell':
      if (ops[0]) handOver(inv, interp, { daemon, what, code: hasOption(p, '-F') ? null : ops[0].value, cwd: null });
      // The commands it runs are tmux commands: what they hand over is not known here.
      if (ops.length > 1) handOver(inv, interp, { daemon, what, code: null, cwd: null });
      return;
    case 'pipe-pane':
      if (ops[0]) handOver(inv, interp, { daemon, what, code: ops[0].value, cwd: null });
      return;
    default:
      // One word is a shell command; several are run directly, as argv (tmux(1) "shell-command").
      if (ops.length > 0) handOver(inv, interp, { daemon, what, code: ops.length === 1 ? ops[0]!.value : shellWords(ops), cwd });
  }
}

const tmux: CommandSpec = {
  category: 'shell',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'cfLST', stopAtOperand: true });
    // `tmux -c CMD` runs CMD in the client, like `sh -c` (for tmux as a login shell).
    for (const c of optionValues(p, '-c')) interp.runNested(c.value, interp.child(inv.st), inv.range, 'tmux -c');
    for (const words of commands(p.operands)) one(words, inv, interp);
  },
};

export default command({
  names: ['tmux'],
  build: () => tmux,
});

export const examples: readonly Example[] = [
  ["tmux new-window -d 'touch ../../x'", 'ask'],
  ["tmux new-window -d 'touch /home/dev/repo/x'", 'deny'],
  ["tmux new-session -d -s dev 'echo hi'", 'ask'],
  ["tmux send-keys -t dev 'touch /home/dev/repo/x' Enter", 'deny'],
  ["tmux run-shell 'true'", 'ask'],
  ["tmux display -p '#(touch /home/dev/repo/x)'", 'deny'],
  ['tmux ls', 'allow'],
  ['tmux kill-session -t dev', 'allow'],
  ['tmux new-session -d -s dev', 'allow'],
];
