/**
 * Shell state that changes how a path, a glob or a `cd` resolves: every `set -o` and `shopt`
 * option bash 5.2 has, and the variables bash reads (bash(1) "SHELL BUILTIN COMMANDS" set/shopt,
 * "Shell Variables", "Special Parameters"). Each is either modelled (the analysis follows it),
 * unknown (turning it on makes the result unknown: a BG4002 finding, so the call is asked), or
 * of no effect on where anything lands (with the reason). The examples beside each entry run as
 * tests (test/shell-options.test.ts), and a test checks that this table lists every option the
 * installed bash has.
 */
import { HOLE } from '../effects/types.js';
import type { Field } from '../shell/field.js';
import type { State } from './state.js';
import type { ExpectedDecision } from '../effects/types.js';

export interface ShellStateEntry {
  /** modelled: followed; unknown: asks when set; none: cannot move where anything lands. */
  kind: 'modelled' | 'unknown' | 'none';
  note: string;
  /** A command using it and the hook's decision in the standard layout (cwd: worktree b1). */
  examples?: Array<[cmd: string, expect: ExpectedDecision]>;
}

const none = (note: string): ShellStateEntry => ({ kind: 'none', note });

/** `set -o NAME` options (with their `set -X` letter in the note where they have one). */
export const SET_OPTIONS: Record<string, ShellStateEntry> = {
  allexport: none('-a: exports variables; where they point is already followed'),
  braceexpand: { kind: 'modelled', note: '-B: braces are always expanded here, a superset of `set +B` (literal braces name no control file)', examples: [['set +B; touch {a,b}.txt', 'allow']] },
  emacs: none('line editing (interactive)'),
  errexit: none('-e: fewer commands run'),
  errtrace: none('-E: ERR traps in functions; traps are analyzed'),
  functrace: none('-T: DEBUG/RETURN traps in functions; traps are analyzed'),
  hashall: none('-h: remembers command locations'),
  histexpand: none('-H: `!` history expansion (interactive)'),
  history: none('command history (interactive)'),
  ignoreeof: none('interactive'),
  'interactive-comments': none('comments'),
  keyword: none('-k: assignment words anywhere become environment: fewer operands than analyzed'),
  monitor: none('-m: job control'),
  noclobber: none('-C: `>` refuses to overwrite: fewer writes'),
  noexec: none('-n: nothing runs'),
  noglob: { kind: 'modelled', note: '-f: globs stay literal; a glob is analyzed as matching anything, a superset', examples: [['set -f; touch ../../*', 'deny']] },
  nolog: none('ignored by bash'),
  notify: none('job notifications'),
  nounset: none('-u: an unset variable stops the shell: fewer writes'),
  onecmd: none('-t: exits after one command: fewer writes'),
  physical: { kind: 'modelled', note: '-P: `cd` resolves symlinks (like `cd -P`)', examples: [['set -P; cd .. && touch x', 'deny'], ['set -P; cd src 2>/dev/null; touch x', 'allow']] },
  pipefail: none('exit status'),
  posix: { kind: 'unknown', note: 'POSIX mode changes `cd`, tilde expansion in assignments and special builtins', examples: [['set -o posix; touch x', 'ask']] },
  privileged: none('-p: BASH_ENV and ENV are not read: fewer files sourced'),
  verbose: none('-v: echoes input to stderr'),
  vi: none('line editing (interactive)'),
  xtrace: none('-x: traces to stderr (BASH_XTRACEFD is a descriptor, not a path)'),
};

/** `set -X` letters and the option each one names. */
export const SET_LETTERS: Record<string, string> = {
  a: 'allexport', B: 'braceexpand', e: 'errexit', E: 'errtrace', T: 'functrace', h: 'hashall', H: 'histexpand', k: 'keyword', m: 'monitor',
  C: 'noclobber', n: 'noexec', f: 'noglob', b: 'notify', u: 'nounset', t: 'onecmd', P: 'physical', p: 'privileged', v: 'verbose', x: 'xtrace',
};

const compat = (v: string): ShellStateEntry => ({ kind: 'unknown', note: `bash ${v} compatibility: behaviours (quoting in [[ =~ ]], locale ranges ...) that decide branches and names`, examples: [[`shopt -s compat${v.replace('.', '')}; touch x`, 'ask']] });

/** `shopt` options. */
export const SHOPT_OPTIONS: Record<string, ShellStateEntry> = {
  autocd: none('interactive only: a directory name run as a command is a `cd`'),
  assoc_expand_once: none('subscripts expanded once'),
  cdable_vars: { kind: 'modelled', note: '`cd NAME` goes to $NAME when NAME is not a directory', examples: [['shopt -s cdable_vars; d=../..; cd d && touch x', 'deny'], ['shopt -s cdable_vars; d=src; cd d && touch x', 'allow']] },
  cdspell: none('interactive only: corrects `cd` typos'),
  checkhash: none('hash table'),
  checkjobs: none('interactive'),
  checkwinsize: none('terminal size'),
  cmdhist: none('history'),
  compat31: compat('3.1'),
  compat32: compat('3.2'),
  compat40: compat('4.0'),
  compat41: compat('4.1'),
  compat42: compat('4.2'),
  compat43: compat('4.3'),
  compat44: compat('4.4'),
  complete_fullquote: none('completion'),
  direxpand: none('completion'),
  dirspell: none('completion'),
  dotglob: { kind: 'modelled', note: 'globs match names starting with `.`: `*` reaches .claude, .git, .bashguard.json', examples: [['shopt -s dotglob; rm -rf *', 'ask'], ['rm -rf *', 'allow']] },
  execfail: none('exec failure does not exit'),
  expand_aliases: { kind: 'modelled', note: 'aliases expand (src/engine/shell/extras.ts)', examples: [["shopt -s expand_aliases\nalias t='touch ../../x'\nt", 'deny']] },
  extdebug: none('a DEBUG trap may skip commands: fewer writes'),
  extglob: { kind: 'modelled', note: '`@(...)`, `!(...)` ... are globs that may name any entry, dot names included', examples: [['shopt -s extglob\nrm -f @(.bashguard).json', 'ask']] },
  extquote: none('$\'...\' quoting inside ${...}'),
  failglob: none('a glob without a match fails the command: fewer writes'),
  force_fignore: none('completion'),
  globasciiranges: none('[a-z] ranges by code point; control file names are matched case-sensitively either way'),
  globskipdots: { kind: 'unknown', note: 'turned off, `.*` matches `..`: a glob reaches the parent directory', examples: [['shopt -u globskipdots; rm -rf .*', 'ask']] },
  globstar: { kind: 'modelled', note: '`**` crosses directories; a glob with `/` after it is already unknown below its directory', examples: [['shopt -s globstar; rm -f ../../**/x', 'ask'], ['shopt -s globstar; rm -f build/**/x', 'allow']] },
  gnu_errfmt: none('error format'),
  histappend: none('history (interactive)'),
  histreedit: none('history (interactive)'),
  histverify: none('history (interactive)'),
  hostcomplete: none('completion'),
  huponexit: none('SIGHUP to jobs'),
  inherit_errexit: none('errexit in $(...): fewer writes'),
  interactive_comments: none('comments'),
  lastpipe: { kind: 'unknown', note: 'the last command of a pipeline runs in this shell: its `cd` and variables persist', examples: [['shopt -s lastpipe; echo | cd ../..; touch x', 'ask']] },
  lithist: none('history'),
  localvar_inherit: { kind: 'unknown', note: 'local variables inherit the caller\'s value', examples: [['shopt -s localvar_inherit; touch x', 'ask']] },
  localvar_unset: none('unset of a local variable of a caller'),
  login_shell: none('read-only'),
  mailwarn: none('mail'),
  no_empty_cmd_completion: none('completion'),
  nocaseglob: { kind: 'modelled', note: 'globs match case-insensitively: treated as matching any name, dot names included', examples: [['shopt -s nocaseglob; rm -f .BASHGUARD*', 'ask']] },
  nocasematch: { kind: 'unknown', note: 'case and [[ ]] patterns match case-insensitively: branches taken differ', examples: [['shopt -s nocasematch; touch x', 'ask']] },
  noexpand_translation: none('$"..." translation'),
  nullglob: { kind: 'modelled', note: 'a glob without a match vanishes and the next word takes its place (`cp a ../../x *.none`): the command\'s paths are treated as an unknown command\'s', examples: [['shopt -s nullglob; cp ../../README.md ../../y *.none', 'ask'], ['shopt -s nullglob; cp README.md *.none', 'allow']] },
  patsub_replacement: none('& in ${x/a/b}: a value with & is treated as the literal text, then followed'),
  progcomp: none('completion'),
  progcomp_alias: none('completion'),
  promptvars: none('prompt'),
  restricted_shell: none('read-only'),
  shift_verbose: none('messages'),
  sourcepath: none('`source NAME` searches PATH: the file analyzed is the one in the cwd when readable, else it is reported as not analyzed'),
  varredir_close: none('{var}> descriptors closed after the command'),
  xpg_echo: { kind: 'unknown', note: 'echo interprets backslash escapes: `$(echo ..\\\\057..)` is ../..', examples: [['shopt -s xpg_echo; touch x', 'ask']] },
};

/** Variables bash itself reads that change how a path or a `cd` resolves. */
export const SHELL_VARIABLES: Record<string, ShellStateEntry> = {
  CDPATH: { kind: 'modelled', note: '`cd NAME` tries each entry first', examples: [['CDPATH=../..; cd src && touch x', 'deny']] },
  HOME: { kind: 'modelled', note: '`~` and `cd` without an argument', examples: [['HOME=../..; cd && touch x', 'deny'], ['HOME=/home/dev/repo; touch ~/x', 'deny']] },
  OLDPWD: { kind: 'modelled', note: '`cd -` and `~-`', examples: [['OLDPWD=/home/dev/repo; cd - && touch x', 'deny']] },
  PWD: { kind: 'modelled', note: 'an assigned $PWD is what `$PWD` and `~+` expand to (cd ignores it)', examples: [['PWD=/home/dev/repo; touch "$PWD/x"', 'deny'], ['PWD=/home/dev/repo; cd . && touch x', 'allow']] },
  GLOBIGNORE: { kind: 'modelled', note: 'set and not empty, it turns dotglob on', examples: [['GLOBIGNORE=x; rm -rf *', 'ask']] },
  IFS: { kind: 'modelled', note: 'unquoted expansions split on its characters', examples: [['IFS=:; d="x:../../y"; touch $d', 'deny'], ['IFS=:; d="x:y"; touch $d', 'allow']] },
  BASH_ENV: { kind: 'modelled', note: 'a non-interactive bash sources it first: analyzed like `source`', examples: [["echo 'touch /home/dev/repo/x' > /tmp/e.sh; BASH_ENV=/tmp/e.sh bash -c true", 'deny'], ["echo 'touch x' > /tmp/e.sh; BASH_ENV=/tmp/e.sh bash -c true", 'allow']] },
  ENV: { kind: 'modelled', note: 'an interactive sh or bash sources it first: analyzed like `source`', examples: [["echo 'touch /home/dev/repo/x' > /tmp/e.sh; ENV=/tmp/e.sh sh -i -c true", 'deny'], ["echo 'touch /home/dev/repo/x' > /tmp/e.sh; ENV=/tmp/e.sh sh -c true", 'allow']] },
  SHELLOPTS: { kind: 'modelled', note: 'exported, a child bash starts with these `set -o` options', examples: [['SHELLOPTS=posix bash -c "touch x"', 'ask']] },
  BASHOPTS: { kind: 'modelled', note: 'exported, a child bash starts with these `shopt` options', examples: [['BASHOPTS=dotglob bash -c "rm -rf *"', 'ask']] },
  POSIXLY_CORRECT: { kind: 'unknown', note: 'turns POSIX mode on', examples: [['POSIXLY_CORRECT=1; touch x', 'ask']] },
  BASH_COMPAT: { kind: 'unknown', note: 'a compatibility level, like the compat options', examples: [['BASH_COMPAT=3.1; touch x', 'ask']] },
  TMPDIR: { kind: 'modelled', note: 'where mktemp writes (src/engine/commands/specs/mktemp.ts)', examples: [['TMPDIR=/home/dev/repo mktemp', 'deny']] },
  PATH: none('which program runs a name: scripts the command wrote are followed by path (write-then-run)'),
  FIGNORE: none('completion'),
  HISTFILE: none('a non-interactive shell writes no history'),
};

/** Special parameters that can name a path. */
export const SPECIAL_PARAMETERS: Record<string, ShellStateEntry> = {
  _: { kind: 'unknown', note: '$_ (the last argument of the previous command) is not followed: unknown', examples: [['touch ../../a; echo x > "$_"', 'deny']] },
  '0': none('the shell\'s name'),
  '-': none('option letters'),
  '!': none('a process id'),
  $: none('a process id'),
  '?': none('an exit status'),
};

const ON = new Set(Object.keys(SET_OPTIONS).filter((k) => SET_OPTIONS[k]!.kind === 'modelled').concat(Object.keys(SHOPT_OPTIONS).filter((k) => SHOPT_OPTIONS[k]!.kind === 'modelled')));

/** Why assigning this variable makes the result unknown, or null. */
export function unknownVariable(name: string): string | null {
  const e = SHELL_VARIABLES[name];
  return e?.kind === 'unknown' ? `${name}: ${e.note}, which is not modelled` : null;
}

/** What turning an option on (or off) means here: the state to keep, or the reason the result is unknown. */
export function optionChange(name: string, on: boolean, shopt: boolean): { keep: boolean } | { unknown: string } | null {
  const entry = shopt ? SHOPT_OPTIONS[name] : SET_OPTIONS[name];
  // bash rejects a name it does not have and changes nothing (every option of the installed bash
  // is in these tables: test/shell-options.test.ts).
  if (!entry) return null;
  if (entry.kind === 'unknown') {
    // globskipdots is on by default: turning it off is what changes resolution.
    if ((name === 'globskipdots') !== on) return { unknown: `${shopt ? `shopt ${on ? '-s' : '-u'}` : on ? 'set -o' : 'set +o'} ${name}: ${entry.note}, which is not modelled` };
    return null;
  }
  return ON.has(name) ? { keep: on } : null;
}

/** Sets or clears a kept option in the state (copy on write: the set is shared between forks). */
export function setShellOption(st: State, name: string, on: boolean): void {
  const has = st.extras.shopts.has(name);
  if (has === on) return;
  const next = new Set(st.extras.shopts);
  if (on) next.add(name);
  else next.delete(name);
  st.extras.shopts = next;
}

/** GLOBIGNORE set and not empty turns dotglob on (bash(1) GLOBIGNORE). */
function globIgnore(st: State): boolean {
  const v = st.vars.get('GLOBIGNORE');
  return v !== undefined && v.value !== '';
}

/** A glob in this state may match names the pattern does not spell (dot names, another case). */
export function globsMatchHidden(st: State): boolean {
  const o = st.extras.shopts;
  return o.size > 0 && (o.has('dotglob') || o.has('nocaseglob') || o.has('extglob')) ? true : globIgnore(st);
}

const EXTGLOB = /[?*+@!]\([^()]*\)/g;

/** Under extglob, `@(...)`-style patterns are globs that may name any entry (dot names included). */
export function extglobField(field: Field, st: State): Field {
  if (!st.extras.shopts.has('extglob') || !/[?*+@!]\(/.test(field.value) || field.value.includes(HOLE)) return field;
  return { ...field, value: field.value.replace(EXTGLOB, '*'), glob: true, dotglob: true };
}

