/**
 * Code git runs: configuration and environment whose value is a command (`core.sshCommand`,
 * `GIT_EDITOR`, filters, diff drivers), and subcommand options that take one (`rebase --exec`,
 * `bisect run`, `submodule foreach`, filter-branch's filters), analyzed from the directory git acts on.
 */
import { HOLE, type GitAccess } from '../effects/types.js';
import type { Field } from '../shell/field.js';
import type { CommandContext, Invocation } from './context.js';
import { displayPath } from '../shell/paths.js';
import { envOf } from './env.js';
import { operands, shellQuote, type Target } from './git-args.js';

/** Configuration whose value git runs as shell code (or a program), as data. */
const CODE_KEYS: Array<{ key: RegExp; when?: (sub: string | null, access: GitAccess) => boolean; bang?: boolean; possible?: boolean }> = [
  { key: /^core\.fsmonitor$/i },
  { key: /^core\.sshcommand$/i, when: (sub) => NETWORK.has(sub ?? '') },
  { key: /^core\.gitproxy$/i, when: (sub) => NETWORK.has(sub ?? '') },
  { key: /^core\.askpass$/i, when: (sub) => NETWORK.has(sub ?? '') },
  { key: /^credential\..*helper$/i, when: (sub) => NETWORK.has(sub ?? ''), bang: true },
  { key: /^(?:core|sequence)\.editor$/i, when: (sub, access) => access !== 'read' },
  { key: /^diff\.external$/i, when: (sub) => ['diff', 'log', 'show'].includes(sub ?? '') },
  { key: /^diff\..+\.(?:textconv|command)$/i },
  { key: /^filter\..+\.(?:clean|smudge|process)$/i },
  { key: /^merge\..+\.driver$/i, when: (sub, access) => access !== 'read' },
  { key: /^gpg(?:\..+)?\.program$/i, when: (sub, access) => access !== 'read' },
  { key: /^uploadpack\.packobjectshook$/i },
  // Run only on a condition the analysis cannot see: a pager where the output is a terminal, a
  // merge or diff tool's command for each conflicted or changed file.
  { key: /^(?:core\.pager|pager\..+)$/i, possible: true },
  { key: /^mergetool\..+\.cmd$/i, when: (sub) => sub === 'mergetool', possible: true },
  { key: /^difftool\..+\.cmd$/i, when: (sub) => sub === 'difftool', possible: true },
];

const NETWORK = new Set(['fetch', 'pull', 'push', 'clone', 'ls-remote', 'submodule', 'remote', 'archive']);

/** Environment variables whose value git runs. */
const CODE_ENV = ['GIT_SSH_COMMAND', 'GIT_SSH', 'GIT_EDITOR', 'GIT_SEQUENCE_EDITOR', 'GIT_EXTERNAL_DIFF', 'GIT_ASKPASS', 'GIT_PAGER', 'PAGER'];
/** Of those, the ones git runs only where its output is a terminal. */
const PAGER_ENV = new Set(['GIT_PAGER', 'PAGER']);

/** Analyzes shell code git runs, from the directory git acts on. */
export function runGitCode(inv: Invocation, interp: CommandContext, t: Target, code: Field, label: string): void {
  if (code.value.includes(HOLE)) {
    interp.dynamicProblem(`${label} runs code that cannot be known statically`, displayPath(code.value), inv.range);
    return;
  }
  const child = interp.child(inv.st);
  child.cwd = t.dir;
  interp.runNested(code.value, child, inv.range, label);
}

export function gitCodeOptions(t: Target, access: GitAccess, inv: Invocation, interp: CommandContext): void {
  for (const c of t.config) {
    const key = c.key;
    if (/^core\.hookspath$/i.test(key)) {
      if (access !== 'read') interp.dynamicProblem(`git -c core.hooksPath=${displayPath(c.value.value)} runs hooks from that directory, which are not analyzed`, `git -c ${key}`, inv.range);
      continue;
    }
    if (/^include(?:if\..*)?\.path$/i.test(key)) {
      interp.dynamicProblem(`git -c ${key} reads configuration (which may run code) from ${displayPath(c.value.value)}, not analyzed`, `git -c ${key}`, inv.range);
      continue;
    }
    const spec = CODE_KEYS.find((k) => k.key.test(key));
    if (!spec || (spec.when && !spec.when(t.sub, access))) continue;
    let v = c.value.value;
    if (/^(?:true|false|yes|no|on|off|0|1|)$/i.test(v)) continue;
    if (spec.bang) {
      if (!v.startsWith('!')) continue;
      v = v.slice(1);
    }
    const run = () => runGitCode(inv, interp, t, { ...c.value, value: v }, `git -c ${key}`);
    if (spec.possible) interp.possibly(run);
    else run();
  }
  for (const name of CODE_ENV) {
    const v = envOf(inv, name);
    if (!v || v.fromEnvironment || v.value === '' || v.value === ':' || v.value === 'true') continue;
    if ((name === 'GIT_SSH_COMMAND' || name === 'GIT_SSH' || name === 'GIT_ASKPASS') && !NETWORK.has(t.sub ?? '')) continue;
    if ((name === 'GIT_EDITOR' || name === 'GIT_SEQUENCE_EDITOR') && access === 'read') continue;
    const run = () => runGitCode(inv, interp, t, { value: v.value, confidence: v.confidence, evidence: v.evidence, glob: false }, `git (${name})`);
    if (PAGER_ENV.has(name)) interp.possibly(run);
    else run();
  }
  // An `ext::` remote runs its command (git-remote-ext(1)) where protocol.ext.allow lets it.
  if (NETWORK.has(t.sub ?? '')) {
    for (const f of t.args) if (f.value.startsWith('ext::')) interp.possibly(() => runGitCode(inv, interp, t, { ...f, value: extCommand(f.value) }, 'git (an ext:: remote)'));
  }
  // Subcommand options whose value is a command: rebase --exec, bisect run, submodule foreach, filter-branch filters.
  const a = t.args;
  const valueOf = (names: string[]): Field[] => {
    const out: Field[] = [];
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!.value;
      for (const n of names) {
        if (v === n && a[i + 1]) out.push(a[++i]!);
        else if (n.startsWith('--') && v.startsWith(`${n}=`)) out.push({ ...a[i]!, value: v.slice(n.length + 1) });
      }
    }
    return out;
  };
  switch (t.sub) {
    case 'rebase':
      for (const c of valueOf(['--exec', '-x'])) runGitCode(inv, interp, t, c, 'git rebase --exec');
      return;
    case 'filter-branch':
      for (const c of valueOf(['--tree-filter', '--index-filter', '--msg-filter', '--env-filter', '--commit-filter', '--parent-filter', '--tag-name-filter'])) runGitCode(inv, interp, t, c, 'git filter-branch');
      return;
    case 'difftool':
      for (const c of valueOf(['--extcmd', '-x'])) runGitCode(inv, interp, t, c, 'git difftool --extcmd');
      return;
    case 'remote-ext': {
      // git-remote-ext(1): `git remote-ext <remote> <command>` runs the command.
      const cmd = operands(a)[1];
      if (cmd) runGitCode(inv, interp, t, { ...cmd, value: extCommand(cmd.value) }, 'git remote-ext');
      return;
    }
    case 'grep':
      for (const c of valueOf(['--open-files-in-pager', '-O'])) runGitCode(inv, interp, t, c, 'git grep -O');
      return;
    case 'bisect':
      if (a[0]?.value === 'run' && a.length > 1) runGitCode(inv, interp, t, { ...a[1]!, value: a.slice(1).map((f) => shellQuote(f.value)).join(' ') }, 'git bisect run');
      return;
    case 'submodule': {
      const fi = a.findIndex((f) => f.value === 'foreach');
      const rest = fi >= 0 ? a.slice(fi + 1).filter((f) => f.value !== '--recursive' && f.value !== '--quiet' && f.value !== '-q') : [];
      if (rest.length > 0) runGitCode(inv, interp, t, { ...rest[0]!, value: rest.map((f) => f.value).join(' ') }, 'git submodule foreach');
      return;
    }
  }
}

/**
 * The command of an `ext::` URL as shell text: its words are separated by blanks, and `% ` is a
 * blank inside a word, `%s` the service, `%%` a `%` (git-remote-ext(1)).
 */
function extCommand(url: string): string {
  const words: string[] = [];
  let w = '';
  const text = url.replace(/^ext::/, '');
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '%' && i + 1 < text.length) {
      const n = text[++i]!;
      w += n === 's' || n === 'S' ? 'git-upload-pack' : n;
    } else if (c === ' ') {
      if (w) words.push(w);
      w = '';
    } else w += c;
  }
  if (w) words.push(w);
  return words.map(shellQuote).join(' ');
}
