/**
 * Command knowledge, keyed by command basename (like ShellCheck's command checks): which
 * arguments a command writes, which wrappers to peel, which commands run shell code or code in
 * another language. Most entries are declarative (`writes`, `wrapper`); a few irregular syntaxes
 * (dd, tar, find, sed -i, git ...) have small handlers next to their data.
 */
import { HOLE, type Evidence, type WriteOp } from '../effects/types.js';
import type { Confidence } from '../effects/confidence.js';
import type { Field } from '../interpret/expand.js';
import type { CommandContext, Invocation, Stdin } from './context.js';
import { dropVar, type CwdValue } from '../interpret/state.js';
import { basenameOf, displayPath, joinPath, normalizeLogical } from '../interpret/paths.js';
import { hasOption, optionValues, parseArgs, type OptionGrammar, type ParsedArgs } from './args.js';
import { runGit } from './git.js';
import { inlineCodeWrites, languageOf } from './inline-code.js';
import { patchTargets, patchText } from './patch-files.js';
import { unknownCommand, unlisted } from './unknown.js';
import { envOf } from './env.js';
import type { ExpectedDecision } from '../effects/types.js';
import { optionChange, setShellOption } from '../interpret/shell-options.js';
import type { State } from '../interpret/state.js';

export interface CommandSpec {
  /** What kind of knowledge this entry holds (shown by `bashguard explain --commands`). */
  category: 'writes' | 'wrapper' | 'shell' | 'code' | 'builtin' | 'project' | 'git' | 'read';
  /** Prints nothing (so `$(cmd)` is empty rather than unknown). */
  silent?: boolean;
  run(inv: Invocation, interp: CommandContext): void;
  /**
   * Commands using this entry and the hook's decision for each in the standard layout (cwd: the
   * worktree b1 of /home/dev/repo): run as tests by test/command-examples.test.ts.
   */
  examples?: ReadonlyArray<readonly [cmd: string, expect: ExpectedDecision]>;
}

/** An entry with its examples beside it. */
function ex(spec: CommandSpec, examples: ReadonlyArray<readonly [string, ExpectedDecision]>): CommandSpec {
  return { ...spec, examples };
}

// ---------------------------------------------------------------- declarative writers

interface WritesSpec {
  grammar: OptionGrammar;
  /** What the operands are: each written; the last is the destination; all but the first. */
  operands: 'each' | 'dest-last' | 'after-first' | 'none';
  op: WriteOp;
  /** For `dest-last`: what happens to the sources (mv deletes them). */
  sources?: WriteOp;
  /** Options whose value is a written path, and how. */
  optionWrites?: Record<string, WriteOp>;
  /** Options naming the destination directory (`cp -t DIR`). */
  targetDir?: string[];
  /** Flags that change the operation (`tee -a`, `install -d`). */
  flagOps?: Record<string, WriteOp>;
  /** Flags that make the effect reach a whole tree (`rm -r`, `cp -a`). */
  subtreeFlags?: string[];
  /** Flags that make the command write nothing (`gzip -c`, `unzip -l`). */
  noWriteFlags?: string[];
}

function writes(spec: WritesSpec): CommandSpec {
  return {
    category: 'writes',
    silent: true,
    run(inv, interp) {
      applyWrites(spec, parseArgs(inv.args, spec.grammar), inv, interp);
    },
  };
}

function applyWrites(spec: WritesSpec, p: ParsedArgs, inv: Invocation, interp: CommandContext, cwd?: CwdValue): void {
  if (spec.noWriteFlags && hasOption(p, ...spec.noWriteFlags)) return;
  let op = spec.op;
  for (const [flag, flagOp] of Object.entries(spec.flagOps ?? {})) if (hasOption(p, flag)) op = flagOp;
  const subtree = spec.subtreeFlags ? hasOption(p, ...spec.subtreeFlags) : false;
  const w = (o: WriteOp, f: Field, sub = subtree, tree = false) => interp.write(o, f, inv.st, inv.range, inv.name, { subtree: sub, cwdOverride: cwd, tree });
  const unknownValues: Field[] = [];
  for (const o of p.options) {
    const role = spec.optionWrites?.[o.name];
    if (role && o.value) w(role, o.value, false);
    // `--opt=VALUE` of an option the grammar does not list: what it does with VALUE is not known.
    else if (!role && o.value && o.name.startsWith('--') && !spec.grammar.long?.includes(o.name.slice(2))) unknownValues.push(o.value);
  }
  if (unknownValues.length > 0) unlisted(inv, interp, unknownValues, 'the value of an option its entry does not describe');
  const flagChanged = op !== spec.op;
  const operands = flagChanged && spec.flagOps && op === 'mkdir' ? 'each' : spec.operands;
  switch (operands) {
    case 'each':
      for (const f of p.operands) w(op, f);
      return;
    case 'after-first':
      for (const f of p.operands.slice(1)) w(op, f);
      return;
    case 'none':
      return;
    case 'dest-last': {
      const targets = spec.targetDir ? optionValues(p, ...spec.targetDir) : [];
      let sources = p.operands;
      // `ln -s TARGET LINK`: remember the target so later paths through LINK resolve (policy overlay).
      const symbolic = inv.name === 'ln' && hasOption(p, '-s', '--symbolic');
      const link = (f: Field, target: Field | undefined) =>
        symbolic && target && !target.value.includes(HOLE)
          ? interp.write(op, f, inv.st, inv.range, inv.name, { cwdOverride: cwd, linkTarget: target.value })
          : !symbolic && target && op === 'link'
            ? interp.write(op, f, inv.st, inv.range, inv.name, { cwdOverride: cwd, hardLinkSource: target.value })
            : w(op, f);
      if (targets.length > 0) {
        for (const t of targets) {
          if (symbolic && p.operands.length === 1) link({ ...t, value: `${t.value.replace(/\/+$/, '')}/${basenameOf(p.operands[0]!.value)}` }, p.operands[0]);
          else {
            w(op, t, true, (subtree || op === 'move') && p.operands.some((f) => f.value.includes(HOLE) || f.glob || /(?:^|\/)\.?\/?$/.test(f.value)));
            for (const s of p.operands.slice(0, 16)) {
              const name = basenameOf(s.value.replace(/\/+$/, ''));
              if (!s.value.includes(HOLE) && !s.glob && name !== '' && name !== '.' && name !== '..') w(op, { ...t, value: `${t.value.replace(/\/+$/, '')}/${name}` }, subtree);
            }
          }
        }
      } else if (p.operands.length >= 2) {
        sources = p.operands.slice(0, -1);
        // DEST may be a directory: each source lands in it under its own name (`cp x .claude/`).
        const dest = p.operands[p.operands.length - 1]!;
        const isDir = dest.value.endsWith('/') || sources.length > 1 || /(?:^|\/)\.\.?$/.test(dest.value);
        // A tree whose top-level name is known lands under that name when DEST is a directory;
        // otherwise (an unknown name, `src/.`, `src/` for rsync, DEST that may not exist yet) it
        // becomes DEST itself: names not known statically land anywhere below DEST.
        let named = op !== 'link' && !dest.value.includes(HOLE);
        if (named) {
          for (const s of sources.slice(0, 16)) {
            const name = basenameOf(s.value.replace(/\/+$/, ''));
            if (s.value.includes(HOLE) || (s.glob && (name.includes(HOLE) || name === '')) || name === '' || name === '.' || name === '..' || (inv.name === 'rsync' && s.value.endsWith('/'))) {
              named = false;
              continue;
            }
            interp.write(op, { ...dest, value: `${dest.value.replace(/\/+$/, '')}/${name}`, glob: s.glob, ...(s.dotglob ? { dotglob: true } : {}), evidence: [...dest.evidence, { range: inv.range, note: `${displayPath(dest.value)} may be a directory: ${displayPath(s.value)} lands in it as ${name}` }] }, inv.st, inv.range, inv.name, { cwdOverride: cwd, subtree, tree: subtree, ...(isDir ? {} : { confidenceCap: 'possible' as const }) });
          }
        }
        const tree = (subtree || op === 'move') && !(named && isDir) && !dest.value.includes(HOLE) && !dest.glob;
        if (op === 'link' && sources.length === 1) link(p.operands[p.operands.length - 1]!, sources[0]);
        // `mv DIR DEST`, `cp -r DIR DEST`: DEST may receive any name below it. (When DEST is a
        // directory and every source's name is known, the per-source writes above are the writes.)
        else if (!(named && isDir && sources.length <= 16)) w(op, dest, subtree || sources.length > 1, tree);
      } else if (p.operands.length === 1 && inv.name === 'ln') {
        // `ln -s TARGET`: the link is created in the cwd, named like the target.
        const t = p.operands[0]!;
        link({ ...t, value: basenameOf(t.value) }, t);
        sources = [];
      } else sources = [];
      if (spec.sources) for (const s of sources) w(spec.sources, s);
      return;
    }
  }
}

// ---------------------------------------------------------------- wrappers

interface WrapperSpec {
  grammar: OptionGrammar;
  /** Operands to skip before the wrapped command (`timeout DURATION cmd`). */
  skip?: number;
  /** Options whose value is the cwd of the wrapped command (`env -C`, `sudo -D`). */
  chdir?: string[];
  /** Leading `NAME=value` operands set the wrapped command's environment (`env`, `sudo`). */
  assignments?: boolean;
  /** Flags after which nothing runs (`command -v`). */
  noRunFlags?: string[];
  /** Options whose value is a command line split on whitespace (`env -S 'cmd args'`). */
  splitString?: string[];
}

function wrapper(spec: WrapperSpec): CommandSpec {
  return {
    category: 'wrapper',
    run(inv, interp) {
      const p = parseArgs(inv.args, { ...spec.grammar, stopAtOperand: true });
      if (spec.noRunFlags && hasOption(p, ...spec.noRunFlags)) return;
      let rest = p.operandIndex.length > 0 ? inv.args.slice(p.operandIndex[0]) : [];
      const split = spec.splitString ? optionValues(p, ...spec.splitString) : [];
      if (split.length > 0) {
        const words = split.flatMap((f) => f.value.split(/\s+/).filter(Boolean).map((w) => ({ ...f, value: w })));
        rest = [...words, ...rest];
      }
      const env = new Map(inv.env);
      if (spec.assignments) {
        while (rest.length > 0 && /^[A-Za-z_][A-Za-z0-9_]*=/.test(rest[0]!.value)) {
          const a = rest[0]!;
          const eq = a.value.indexOf('=');
          env.set(a.value.slice(0, eq), { ...a, value: a.value.slice(eq + 1) });
          rest = rest.slice(1);
        }
      }
      rest = rest.slice(spec.skip ?? 0);
      if (rest.length === 0) return;
      let cwd: CwdValue | undefined;
      const dirs = spec.chdir ? optionValues(p, ...spec.chdir) : [];
      if (dirs.length > 0) cwd = interp.resolveCd(inv.st, dirs[dirs.length - 1]!, inv.range, false);
      interp.runWrapped(rest, env, inv.st, inv.range, inv.name, inv.stdin, cwd);
    },
  };
}

// ---------------------------------------------------------------- shells

const SHELL_GRAMMAR: OptionGrammar = { short: 'oO', long: ['rcfile', 'init-file'], stopAtOperand: true };

/** `bash -c STRING`, `bash -s`, `bash < heredoc`, `bash FILE`. */
const shell: CommandSpec = {
  category: 'shell',
  run(inv, interp) {
    const p = parseArgs(inv.args, SHELL_GRAMMAR);
    const label = `${inv.name} -c`;
    const hasC = p.options.some((o) => o.name === '-c');
    if (hasC) {
      const code = p.operands[0];
      if (!code) return;
      if (code.value.includes(HOLE)) {
        interp.dynamicProblem(`${inv.name} -c runs a command string that cannot be known statically`, displayPath(code.value), inv.range);
        return;
      }
      const child = interp.child(inv.st);
      for (const [k, v] of inv.env) interp.setVar(child, k, v.value, v.confidence, v.evidence, true);
      // `bash -c CODE NAME ARG1 ...`: the operands after the code are $0, $1 ...
      p.operands.slice(1).forEach((a, i) => interp.setVar(child, String(i), a.value, a.confidence, a.evidence));
      shellStartup(inv, interp, child, hasOption(p, '-i'));
      interp.runNested(code.value, child, inv.range, label);
      return;
    }
    // `bash --version`, `bash --help`: print and exit, reading no script.
    if (p.options.some((o) => o.name === '--version' || o.name === '--help')) return;
    const file = p.operands[0];
    if (file && !hasOption(p, '-s')) {
      // `bash script.sh ARGS`: a script file not analyzed here (lint can analyze it on its own);
      // closed world: the paths it is given may be written.
      unknownCommand(inv, interp, p.operands.slice(1));
      return;
    }
    stdinScript(inv, interp, inv.name);
  },
};

/**
 * What a shell reads before its script: SHELLOPTS / BASHOPTS set by the script (exported) start
 * it with those options; a non-interactive bash sources $BASH_ENV, an interactive shell $ENV
 * (bash(1) INVOCATION).
 */
function shellStartup(inv: Invocation, interp: CommandContext, child: State, interactive: boolean): void {
  for (const [name, isShopt] of [['SHELLOPTS', false], ['BASHOPTS', true]] as const) {
    const v = envOf(inv, name);
    if (!v || v.fromEnvironment || !/bash$/.test(inv.name)) continue;
    if (v.value.includes(HOLE)) {
      interp.dynamicProblem(`${name} starts ${inv.name} with options not known statically`, `${name}=${displayPath(v.value)}`, inv.range);
      continue;
    }
    for (const opt of v.value.split(':').filter(Boolean)) {
      const r = optionChange(opt, true, isShopt);
      if (r === null) continue;
      if ('unknown' in r) interp.dynamicProblem(`${name}: ${r.unknown}`, `${name}=${v.value}`, inv.range);
      else setShellOption(child, opt, r.keep);
    }
  }
  const file = interactive ? envOf(inv, 'ENV') : /bash$/.test(inv.name) ? envOf(inv, 'BASH_ENV') : null;
  if (file && !file.fromEnvironment && file.value !== '') interp.sourceFile({ value: file.value, confidence: file.confidence, evidence: file.evidence, glob: false }, child, inv.range);
}

/** A shell reading its script from stdin: a heredoc, a herestring, `echo ... |`. */
function stdinScript(inv: Invocation, interp: CommandContext, label: string): void {
  const s: Stdin = inv.stdin;
  if (s.kind === 'text' && s.known) {
    const child = interp.child(inv.st);
    for (const [k, v] of inv.env) interp.setVar(child, k, v.value, v.confidence, v.evidence, true);
    interp.runNested(s.text, child, inv.range, `${label} <<<`);
  } else {
    interp.dynamicProblem(`${label} reads its script from stdin, which cannot be known statically`, inv.shown, inv.range);
  }
}

// ---------------------------------------------------------------- code in other languages

interface CodeSpec {
  grammar: OptionGrammar;
  /** Options whose value is inline code (`-c`, `-e`). */
  codeOptions: string[];
  /** The first operand is the program when no code option is given (awk, sed). */
  programOperand?: boolean;
  /** In-place editing flag (`perl -i`, `ruby -i`): the file operands are modified. */
  inPlace?: string;
  /** Operands after inline code are its argv (python, node), not input files (perl -n, awk). */
  argvOperands?: boolean;
}

function code(spec: CodeSpec): CommandSpec {
  return {
    category: 'code',
    run(inv, interp) {
      const p = parseArgs(inv.args, spec.grammar);
      const snippets = optionValues(p, ...spec.codeOptions).map((f) => f.value);
      let files = p.operands;
      if (snippets.length === 0 && spec.programOperand && hasOption(p, '-f', '--file')) {
        // `awk -f prog.awk FILES`: a program file we do not analyze (closed world).
        unknownCommand(inv, interp, p.operands);
        return;
      }
      if (snippets.length === 0 && spec.programOperand && p.operands[0]) {
        snippets.push(p.operands[0].value);
        files = p.operands.slice(1);
      }
      // `python3 - <<EOF` / `python3 <<EOF`: the program comes from stdin.
      if (snippets.length === 0 && !spec.programOperand && (p.operands.length === 0 || p.operands[0]!.value === '-') && inv.stdin.kind === 'text' && inv.stdin.known) {
        snippets.push(inv.stdin.text);
      }
      if (snippets.length === 0) {
        // `node app.js ARGS`: a program we do not analyze (closed world): its arguments may be
        // written; the script itself is only read.
        unknownCommand(inv, interp, p.operands.slice(1));
        return;
      }
      const lang = languageOf(inv.name);
      let sink = false;
      for (const s of snippets) if (inlineCodeWrites(s, lang, inv, interp, `inline ${inv.name} code`)) sink = true;
      // `python3 -c CODE ARG...`: arguments handed to code that writes may be the paths it writes.
      if (spec.argvOperands && sink) codeArguments(files, inv, interp);
      const inPlace = spec.inPlace && p.options.some((o) => o.name === spec.inPlace);
      if (inPlace) for (const f of files) interp.write('modify', f, inv.st, inv.range, `${inv.name} -i`);
    },
  };
}

/** `python3 -c CODE ARG...` where CODE writes: each argument (resolved against the cwd) may be what it writes. */
function codeArguments(args: Field[], inv: Invocation, interp: CommandContext): void {
  for (const f of args) {
    if (f.value.startsWith('-') || f.value === '' || f.value.startsWith(HOLE)) continue;
    interp.write('maybe-write', { ...f, evidence: [...f.evidence, { range: inv.range, note: `an argument of inline ${inv.name} code that writes files` }] }, inv.st, inv.range, inv.name, { confidenceCap: 'possible' });
  }
}

// ---------------------------------------------------------------- project tools

/**
 * Build and package tools write somewhere below their project directory (the cwd, or a
 * `-C`/`--prefix` option): harmless inside the worktree, an escape after `cd <main>`.
 */
function project(dirOptions: string[], grammar: OptionGrammar, readOnly: string[] = [], described: string[] = []): CommandSpec {
  return {
    category: 'project',
    run(inv, interp) {
      const p = parseArgs(inv.args, grammar);
      const sub = p.operands[0]?.value;
      if (hasOption(p, '--version', '-v', '--help', '-h', '-V')) return;
      const dirs = optionValues(p, ...dirOptions);
      const dir = dirs[dirs.length - 1];
      if (!(sub && readOnly.includes(sub))) {
        if (dir) interp.write('maybe-write', dir, inv.st, inv.range, inv.name, { subtree: true, confidenceCap: 'possible' });
        else interp.write('maybe-write', { value: '.', confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, inv.name, { subtree: true, confidenceCap: 'possible' });
      }
      // Closed world: the entry says only where the project is and which options are read; any
      // other operand or option value may be a path the subcommand writes.
      projectUnlisted(inv, interp, p, [...dirOptions, ...described]);
    },
  };
}

/** A project tool's operands (after the subcommand) and the values of options its entry does not describe. */
function projectUnlisted(inv: Invocation, interp: CommandContext, p: ParsedArgs, described: string[]): void {
  const rest: Field[] = [];
  for (const o of p.options) if (o.value && !described.includes(o.name)) rest.push(o.value);
  rest.push(...p.operands.slice(1));
  unlisted(inv, interp, rest);
}

// ---------------------------------------------------------------- irregular commands

const dd: CommandSpec = {
  category: 'writes',
  silent: true,
  run(inv, interp) {
    for (const a of inv.args) {
      if (a.value.startsWith('of=')) interp.write('write', { ...a, value: a.value.slice(3) }, inv.st, inv.range, 'dd of=');
    }
  },
};

const SED_GRAMMAR: OptionGrammar = { short: 'efl', long: ['expression', 'file', 'line-length', 'in-place'] };

const sed: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    // `-i[SUFFIX]` and `--in-place[=SUFFIX]` take an optional, attached value only.
    const args = inv.args;
    let inPlace = false;
    let scriptGiven = false;
    const operands: Field[] = [];
    const scripts: string[] = [];
    let onlyOperands = false;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!.value;
      if (onlyOperands || !a.startsWith('-') || a === '-') {
        operands.push(args[i]!);
        continue;
      }
      if (a === '--') {
        onlyOperands = true;
        continue;
      }
      if (a.startsWith('--')) {
        if (a === '--in-place' || a.startsWith('--in-place=')) inPlace = true;
        else if (a === '--expression' || a === '--file') {
          scriptGiven = true;
          if (a === '--expression' && args[i + 1]) scripts.push(args[i + 1]!.value);
          i++;
        } else if (a.startsWith('--expression=')) {
          scriptGiven = true;
          scripts.push(a.slice(13));
        } else if (a.startsWith('--file=')) scriptGiven = true;
        continue;
      }
      for (let j = 1; j < a.length; j++) {
        const c = a[j]!;
        if (c === 'i') {
          inPlace = true;
          // BSD's `sed -i '' EXPR FILE` (the macOS idiom): the empty word is the backup suffix.
          // (GNU would read it as an empty script and rewrite EXPR and FILE unchanged.)
          if (j === a.length - 1 && args[i + 1]?.value === '') i++;
          break; // the rest is the backup suffix
        }
        if (c === 'e' || c === 'f' || c === 'l') {
          if (c !== 'l') scriptGiven = true;
          const rest = a.slice(j + 1);
          const v = rest || args[++i]?.value || '';
          if (c === 'e') scripts.push(v);
          break;
        }
      }
    }
    if (!scriptGiven && operands.length > 0) scripts.push(operands.shift()!.value);
    // `w FILE` inside a sed script writes FILE.
    for (const s of scripts) {
      for (const m of s.matchAll(/(?:^|[;\n}]|\/[gpIi0-9]*)\s*w\s+([^;\n}]+)/g)) {
        interp.write('write', { value: m[1]!.trim(), confidence: 'likely', evidence: [], glob: false }, inv.st, inv.range, 'sed w');
      }
    }
    if (inPlace) for (const f of operands) interp.write('modify', f, inv.st, inv.range, 'sed -i');
  },
};

const TAR_VALUE_SHORT = 'fCbgHKLNTVX';
const TAR_VALUE_LONG = ['file', 'directory', 'blocking-factor', 'listed-incremental', 'format', 'starting-file', 'newer', 'after-date', 'files-from', 'label', 'exclude-from', 'use-compress-program', 'transform', 'xform', 'owner', 'group', 'mode', 'exclude'];

/** Archives a script created with known members (`tar -cf a.tar src`), per analysis. */
const ARCHIVES = new WeakMap<CommandContext, Map<string, string[]>>();
function archivesOf(interp: CommandContext): Map<string, string[]> {
  let m = ARCHIVES.get(interp);
  if (!m) ARCHIVES.set(interp, (m = new Map()));
  return m;
}

const tar: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    let args = inv.args;
    // Old style: `tar xzf file.tgz` (first word is a cluster of letters without a dash).
    if (args[0] && !args[0].value.startsWith('-') && /^[A-Za-z]+$/.test(args[0].value)) {
      args = [{ ...args[0], value: '-' + args[0].value }, ...args.slice(1)];
    }
    const p = parseArgs(args, { short: TAR_VALUE_SHORT, long: TAR_VALUE_LONG });
    const extract = hasOption(p, '-x', '--extract', '--get');
    const create = hasOption(p, '-c', '--create', '-r', '--append', '-u', '--update', '-A', '--catenate', '--concatenate');
    const del = hasOption(p, '--delete');
    const dirs = optionValues(p, '-C', '--directory');
    let cwd: CwdValue | undefined;
    if (dirs.length > 0) cwd = interp.resolveCd(inv.st, dirs[0]!, inv.range, false);
    const files = optionValues(p, '-f', '--file');
    const archive = (f: Field | undefined): string | null => {
      if (!f || f.value === '-' || f.value.includes(HOLE)) return null;
      if (f.value.startsWith('/')) return normalizeLogical(f.value);
      const base = cwd?.paths ?? inv.st.cwd.paths;
      return base?.length === 1 ? normalizeLogical(joinPath(base[0]!, f.value)) : null;
    };
    if (create && !hasOption(p, '-T', '--files-from', '-r', '--append', '-u', '--update', '-A', '--catenate', '--concatenate')) {
      // Remember what an archive this command creates holds, for a later `tar -x` of it.
      const a = archive(files[0]);
      if (a && p.operands.length > 0 && p.operands.every((m) => !m.value.includes(HOLE) && !m.glob)) archivesOf(interp).set(a, p.operands.map((m) => m.value.replace(/^\/+/, '').replace(/\/+$/, '') || '.'));
    }
    if (extract && !hasOption(p, '-O', '--to-stdout', '--to-command')) {
      // `tar -xf a.tar MEMBER...`: only those members (and what lies below them) are written;
      // the same for an archive this command created from known members.
      const known = archivesOf(interp).get(archive(files[0]) ?? '');
      const listed = hasOption(p, '--wildcards', '-T', '--files-from') ? [] : p.operands;
      const members = listed.length === 0 && known ? known.map((value) => ({ value, confidence: 'likely' as const, evidence: [{ range: inv.range, note: `the archive was created here with ${value}` }], glob: false })) : listed;
      if (members.length > 0 && members.every((m) => !m.value.includes(HOLE) && !m.glob)) {
        // Leading `/` is stripped from member names unless -P (tar(1) --absolute-names).
        const absolute = hasOption(p, '-P', '--absolute-names');
        for (const m of members) {
          const value = absolute ? m.value : m.value.replace(/^\/+/, '') || '.';
          // A member may be a directory (`.`, `src`) holding any name below it.
          interp.write('write', { ...m, value }, inv.st, inv.range, 'tar -x', { subtree: true, cwdOverride: cwd, tree: true });
        }
      } else {
        const target = { value: '.', confidence: 'certain' as const, evidence: [], glob: false };
        interp.write('extract', target, inv.st, inv.range, 'tar -x', { subtree: true, cwdOverride: cwd });
      }
    }
    if (create || del) {
      // The archive is opened before -C applies only if -C comes after -f; bash users rarely rely on that.
      for (const f of files) if (f.value !== '-') interp.write('write', f, inv.st, inv.range, 'tar -f');
    }
  },
};

const unzip: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'dxP', stopAtOperand: false });
    if (hasOption(p, '-l', '-t', '-v', '-p', '-c', '-Z', '-z')) return;
    const d = optionValues(p, '-d');
    const target = d[d.length - 1] ?? { value: '.', confidence: 'certain' as const, evidence: [], glob: false };
    // `unzip a.zip MEMBER...`: only those members (their base names with -j) are written.
    const members = p.operands.slice(1);
    if (members.length > 0 && members.every((m) => !m.value.includes(HOLE) && !m.glob && !/[*?[]/.test(m.value)) && !hasOption(p, '-x')) {
      const junk = hasOption(p, '-j');
      for (const m of members) interp.write('write', { ...m, value: joinPath(target.value, junk ? basenameOf(m.value) : m.value.replace(/^\/+/, '')) }, inv.st, inv.range, 'unzip', { subtree: !junk });
      return;
    }
    interp.write('extract', target, inv.st, inv.range, 'unzip', { subtree: true });
  },
};

const CURL_SHORT = 'AbcCdDeEFHKmoPQrTuUwxXyYzt';
const CURL_LONG = ['output', 'dump-header', 'cookie-jar', 'trace', 'trace-ascii', 'libcurl', 'etag-save', 'stderr', 'output-dir', 'header', 'data', 'data-raw', 'data-binary', 'data-urlencode', 'request', 'user', 'user-agent', 'referer', 'form', 'config', 'max-time', 'connect-timeout', 'proxy', 'cookie', 'upload-file', 'write-out', 'range', 'retry', 'cacert', 'cert', 'key', 'resolve', 'url'];

const curl: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: CURL_SHORT, long: CURL_LONG });
    const outDir = optionValues(p, '--output-dir')[0];
    const base = outDir ? interp.resolveCd(inv.st, outDir, inv.range, false) : undefined;
    for (const o of p.options) {
      if (!o.value) {
        if (o.name === '-O' || o.name === '--remote-name' || o.name === '--remote-name-all' || o.name === '-J') {
          interp.write('write', { ...o.field, value: `./${HOLE}` }, inv.st, inv.range, 'curl -O', { cwdOverride: base });
        }
        continue;
      }
      if (['-o', '--output'].includes(o.name) && o.value.value !== '-') interp.write('write', o.value, inv.st, inv.range, 'curl -o', { cwdOverride: base });
      if (['-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--libcurl', '--etag-save', '--stderr'].includes(o.name) && o.value.value !== '-') {
        interp.write('write', o.value, inv.st, inv.range, `curl ${o.name}`);
      }
    }
  },
};

const wget: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'OoaPeiBtTwQUlARDIX', long: ['output-document', 'output-file', 'append-output', 'directory-prefix', 'execute', 'input-file', 'base', 'tries', 'timeout', 'wait', 'quota', 'user-agent', 'level', 'accept', 'reject', 'domains', 'include-directories', 'exclude-directories', 'header', 'post-data', 'user', 'password'] });
    if (hasOption(p, '--spider')) return;
    const docs = optionValues(p, '-O', '--output-document');
    for (const d of docs) if (d.value !== '-') interp.write('write', d, inv.st, inv.range, 'wget -O');
    for (const l of optionValues(p, '-o', '--output-file', '-a', '--append-output')) interp.write('write', l, inv.st, inv.range, 'wget -o');
    if (docs.length === 0) {
      const prefix = optionValues(p, '-P', '--directory-prefix')[0];
      const target = prefix ?? { value: '.', confidence: 'certain' as const, evidence: [], glob: false };
      if (hasOption(p, '-r', '--recursive', '-m', '--mirror', '-x', '--force-directories', '-i', '--input-file')) {
        interp.write('extract', target, inv.st, inv.range, 'wget', { subtree: true });
      } else {
        // One file per URL, named after the URL's last component (index.html when it has none).
        for (const u of p.operands.slice(0, 16)) {
          const name = u.value.includes(HOLE) ? HOLE : u.value.replace(/[?#].*$/, '').replace(/^[a-z]+:\/\/[^/]*/i, '').split('/').pop() || 'index.html';
          interp.write('write', { ...u, value: joinPath(target.value, name) }, inv.st, inv.range, 'wget');
        }
      }
    }
  },
};

const split: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'abClnt', long: ['suffix-length', 'bytes', 'line-bytes', 'lines', 'number', 'separator', 'additional-suffix', 'filter'] });
    const prefix = p.operands[1] ?? { value: 'x', confidence: 'certain' as const, evidence: [], glob: false };
    interp.write('write', { ...prefix, value: prefix.value + HOLE }, inv.st, inv.range, inv.name);
  },
};

const csplit: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'bfn', long: ['suffix-format', 'prefix', 'digits'] });
    const prefix = optionValues(p, '-f', '--prefix')[0] ?? { value: 'xx', confidence: 'certain' as const, evidence: [], glob: false };
    interp.write('write', { ...prefix, value: prefix.value + HOLE }, inv.st, inv.range, inv.name);
  },
};

const patch: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'dioprBDFVYz', long: ['directory', 'input', 'output', 'strip', 'reject-file', 'prefix', 'suffix', 'backup-if-mismatch'] });
    if (hasOption(p, '--dry-run')) return;
    const dirs = optionValues(p, '-d', '--directory');
    const cwd = dirs.length > 0 ? interp.resolveCd(inv.st, dirs[0]!, inv.range, false) : undefined;
    const out = optionValues(p, '-o', '--output');
    for (const o of out) if (o.value !== '-') interp.write('write', o, inv.st, inv.range, 'patch -o', { cwdOverride: cwd });
    if (out.length > 0) return;
    if (p.operands[0]) {
      interp.write('modify', p.operands[0], inv.st, inv.range, 'patch', { cwdOverride: cwd });
      return;
    }
    // The files named inside the patch (-i FILE, or stdin), relative to the (possibly -d) directory.
    const stripValue = optionValues(p, '-p', '--strip')[0]?.value;
    const strip = stripValue === undefined ? null : Number(stripValue);
    const text = patchText(inv, interp, optionValues(p, '-i', '--input')[0]);
    const targets = text === null || (strip !== null && !Number.isInteger(strip)) ? null : patchTargets(text, strip);
    if (targets) {
      for (const t of targets.slice(0, 64)) interp.write('modify', { value: t, confidence: 'likely', evidence: [{ range: inv.range, note: `the patch changes ${t}` }], glob: false }, inv.st, inv.range, 'patch', { cwdOverride: cwd });
      return;
    }
    interp.write('modify', { value: `./${HOLE}`, confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, 'patch', { cwdOverride: cwd, subtree: true, tree: true });
  },
};


const chmodLike = (modeOperand: boolean): CommandSpec => ({
  category: 'writes',
  silent: true,
  run(inv, interp) {
    // `chmod -x file`: a mode can look like an option; only known flags are options.
    const flags = new Set(['-R', '-c', '-f', '-v', '-h', '-H', '-L', '-P', '--recursive', '--changes', '--silent', '--quiet', '--verbose', '--no-dereference', '--dereference', '--preserve-root', '--no-preserve-root']);
    const ops: Field[] = [];
    let reference = false;
    let recursive = false;
    for (const a of inv.args) {
      if (flags.has(a.value) || /^-[RcfvhHLP]+$/.test(a.value)) {
        if (a.value === '--recursive' || /^-[a-zA-Z]*R/.test(a.value)) recursive = true;
        continue;
      }
      if (a.value.startsWith('--reference=') || a.value.startsWith('--from=')) {
        if (a.value.startsWith('--reference=')) reference = true;
        continue;
      }
      ops.push(a);
    }
    const targets = modeOperand && !reference ? ops.slice(1) : ops;
    for (const t of targets) interp.write('chmod', t, inv.st, inv.range, inv.name, { subtree: recursive });
  },
});

const FIND_VALUE_TESTS = new Set(['-name', '-iname', '-path', '-ipath', '-regex', '-iregex', '-type', '-xtype', '-size', '-user', '-group', '-perm', '-newer', '-mtime', '-mmin', '-atime', '-amin', '-ctime', '-cmin', '-maxdepth', '-mindepth', '-links', '-inum', '-samefile', '-wholename', '-iwholename', '-lname', '-ilname', '-uid', '-gid', '-printf', '-fstype', '-used', '-context', '-regextype', '-newerXY', '-D', '-O']);

const find: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const args = inv.args;
    const starts: Field[] = [];
    let i = 0;
    while (i < args.length && /^-[HLP]$/.test(args[i]!.value)) i++;
    for (; i < args.length; i++) {
      const v = args[i]!.value;
      if (v.startsWith('-') || v === '(' || v === '!' || v === ',') break;
      starts.push(args[i]!);
    }
    if (starts.length === 0) starts.push({ value: '.', confidence: 'certain', evidence: [], glob: false });
    const under = (s: Field): Field => ({ ...s, value: s.value.replace(/\/+$/, '') + '/' + HOLE });
    for (; i < args.length; i++) {
      const v = args[i]!.value;
      if (FIND_VALUE_TESTS.has(v)) {
        i++;
        continue;
      }
      if (v === '-delete') for (const s of starts) interp.write('delete', under(s), inv.st, inv.range, 'find -delete', { subtree: true });
      if (v === '-fprint' || v === '-fprint0' || v === '-fls' || v === '-fprintf') {
        const f = args[i + 1];
        if (f) interp.write('write', f, inv.st, inv.range, `find ${v}`);
        i += v === '-fprintf' ? 2 : 1;
        continue;
      }
      if (v === '-exec' || v === '-execdir' || v === '-ok' || v === '-okdir') {
        const inner: Field[] = [];
        let j = i + 1;
        for (; j < args.length; j++) {
          const t = args[j]!.value;
          if (t === ';' || (t === '+' && inner.length > 0 && inner[inner.length - 1]!.value === '{}')) break;
          inner.push(args[j]!);
        }
        i = j;
        if (inner.length === 0) continue;
        for (const s of starts) {
          const dir = v.endsWith('dir');
          const placeholder = dir ? `./${HOLE}` : s.value.replace(/\/+$/, '') + '/' + HOLE;
          const argv = inner.map((f) => (f.value.includes('{}') ? { ...f, value: f.value.split('{}').join(placeholder) } : f));
          const cwd = dir ? interp.resolveCd(inv.st, { ...s, value: s.value.replace(/\/+$/, '') + '/' + HOLE }, inv.range, false) : undefined;
          const known = dir && !s.value.includes(HOLE) ? interp.resolveCd(inv.st, s, inv.range, false) : cwd;
          interp.runWrapped(argv, inv.env, inv.st, inv.range, `find ${v}`, { kind: 'unknown' }, known);
        }
      }
    }
  },
};

const xargs: CommandSpec = {
  category: 'wrapper',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'adeEIiLlnPs', long: ['arg-file', 'delimiter', 'eof', 'replace', 'max-lines', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'], stopAtOperand: true });
    const rest = p.operandIndex.length > 0 ? inv.args.slice(p.operandIndex[0]) : [{ value: 'echo', confidence: 'certain' as const, evidence: [], glob: false }];
    const s = inv.stdin;
    if (s.kind === 'text' && s.known && !hasOption(p, '-a', '--arg-file')) {
      // `echo a b | xargs cmd`: the words are known.
      const words = s.text.split(/\s+/).filter(Boolean).slice(0, 64);
      const replaceStr = optionValues(p, '-I', '--replace')[0]?.value ?? (hasOption(p, '-i') ? '{}' : null);
      const field = (v: string): Field => ({ value: v, confidence: 'likely', evidence: [{ range: inv.range, note: `xargs reads ${v} from stdin` }], glob: false });
      if (replaceStr) {
        for (const line of s.text.split('\n').filter((l) => l.trim() !== '').slice(0, 16)) {
          interp.runWrapped(rest.map((f) => (f.value.includes(replaceStr) ? { ...field(f.value.split(replaceStr).join(line.trim())) } : f)), inv.env, inv.st, inv.range, 'xargs', { kind: 'unknown' });
        }
      } else interp.runWrapped([...rest, ...words.map(field)], inv.env, inv.st, inv.range, 'xargs', { kind: 'unknown' });
      return;
    }
    const item = s.kind === 'paths' ? s.prefix + HOLE : HOLE;
    const conf = s.kind === 'paths' ? ('likely' as const) : ('possible' as const);
    const replace = optionValues(p, '-I', '--replace')[0]?.value ?? (hasOption(p, '-i') ? '{}' : null);
    const mk = (v: string): Field => ({ value: v, confidence: conf, evidence: [{ range: inv.range, note: s.kind === 'paths' ? `xargs reads paths under ${s.prefix}` : 'xargs reads its arguments from stdin' }], glob: false });
    const argv = replace ? rest.map((f) => (f.value.includes(replace) ? { ...mk(f.value.split(replace).join(item)) } : f)) : [...rest, mk(item)];
    interp.runWrapped(argv, inv.env, inv.st, inv.range, 'xargs', { kind: 'unknown' });
  },
};

const parallel: CommandSpec = {
  category: 'wrapper',
  run(inv, interp) {
    const idx = inv.args.findIndex((a) => a.value === ':::' || a.value === '::::');
    const cmd = (idx >= 0 ? inv.args.slice(0, idx) : inv.args).filter((a) => !a.value.startsWith('-'));
    if (cmd.length === 0) return;
    const values = idx >= 0 ? inv.args.slice(idx + 1) : [];
    const items = values.length > 0 && values.length <= 16 ? values : [{ value: HOLE, confidence: 'possible' as const, evidence: [], glob: false }];
    for (const it of items) {
      const argv = cmd.some((f) => f.value.includes('{}')) ? cmd.map((f) => ({ ...f, value: f.value.split('{}').join(it.value) })) : [...cmd, it];
      if (argv.length === 1 && argv[0]!.value.includes(' ')) interp.runNested(argv[0]!.value, interp.child(inv.st), inv.range, 'parallel');
      else interp.runWrapped(argv, inv.env, inv.st, inv.range, 'parallel', { kind: 'unknown' });
    }
  },
};

/** `watch 'cmd'`, `su -c 'cmd'`, `script -c 'cmd'`, `flock FILE -c 'cmd'`: a command string run by sh. */
function commandString(grammar: OptionGrammar, codeOption: string | null, joinOperands: boolean): CommandSpec {
  return {
    category: 'wrapper',
    run(inv, interp) {
      const p = parseArgs(inv.args, { ...grammar, stopAtOperand: true });
      let src: Field | undefined;
      if (codeOption) src = optionValues(p, codeOption, ...(codeOption === '-c' ? ['--command'] : []))[0];
      if (!src && joinOperands && p.operands.length > 0) {
        const rest = inv.args.slice(p.operandIndex[0]);
        if (rest.length > 1 && inv.name !== 'watch') {
          interp.runWrapped(rest, inv.env, inv.st, inv.range, inv.name, inv.stdin);
          return;
        }
        src = { ...rest[0]!, value: rest.map((f) => f.value).join(' ') };
      }
      if (!src) return;
      if (src.value.includes(HOLE)) {
        interp.dynamicProblem(`${inv.name} runs a command string that cannot be known statically`, displayPath(src.value), inv.range);
        return;
      }
      interp.runNested(src.value, interp.child(inv.st), inv.range, `${inv.name} -c`);
    },
  };
}

const flock: CommandSpec = {
  category: 'wrapper',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'wEc', long: ['timeout', 'conflict-exit-code', 'command'], stopAtOperand: true });
    const lock = p.operands[0];
    if (lock && !/^\d+$/.test(lock.value)) interp.write('create', lock, inv.st, inv.range, 'flock');
    const ci = inv.args.findIndex((a) => a.value === '-c' || a.value === '--command');
    const c = optionValues(p, '-c', '--command')[0] ?? (ci >= 0 ? inv.args[ci + 1] : undefined);
    if (c) {
      if (c.value.includes(HOLE)) interp.dynamicProblem('flock -c runs a command string that cannot be known statically', displayPath(c.value), inv.range);
      else interp.runNested(c.value, interp.child(inv.st), inv.range, 'flock -c');
      return;
    }
    const rest = p.operandIndex.length > 1 ? inv.args.slice(p.operandIndex[1]) : [];
    if (rest.length > 0) interp.runWrapped(rest, inv.env, inv.st, inv.range, 'flock', inv.stdin);
  },
};

// ---------------------------------------------------------------- builtins with state

function cdTarget(inv: Invocation): { target: Field | null; physical: boolean; dash: boolean } {
  // `set -P` / `set -o physical` make -P the default; `cd -L` still overrides it.
  let physical = inv.st.extras.shopts.has('physical');
  let i = 0;
  for (; i < inv.args.length; i++) {
    const v = inv.args[i]!.value;
    if (v === '--') {
      i++;
      break;
    }
    if (/^-[LPe@]+$/.test(v)) {
      if (v.includes('P')) physical = true;
      if (v.includes('L')) physical = false;
      continue;
    }
    break;
  }
  const t = inv.args[i] ?? null;
  return { target: t, physical, dash: t?.value === '-' };
}

const cd: CommandSpec = {
  category: 'builtin',
  silent: true,
  run(inv, interp) {
    const { target, physical, dash } = cdTarget(inv);
    let next: CwdValue;
    if (dash) {
      const oldVar = inv.st.vars.get('OLDPWD');
      next =
        oldVar && !oldVar.fromEnvironment && !oldVar.value.includes(HOLE)
          ? interp.resolveCd(inv.st, { value: oldVar.value, confidence: oldVar.confidence, evidence: oldVar.evidence, glob: false }, inv.range, physical)
          : inv.st.oldpwd ?? { paths: null, confidence: 'possible', evidence: [{ range: inv.range, note: '`cd -` with no previous directory known' }], changed: true };
      interp.emitOutput((next.paths?.[0] ?? HOLE) + '\n');
    } else if (!target) {
      const home = inv.st.vars.get('HOME');
      next = home
        ? interp.resolveCd(inv.st, { value: home.value, confidence: home.confidence, evidence: [], glob: false }, inv.range, physical)
        : { paths: null, confidence: 'possible', evidence: [{ range: inv.range, note: '`cd` to an unknown $HOME' }], changed: true };
    } else {
      next = interp.resolveCd(inv.st, target, inv.range, physical);
      // `shopt -s cdable_vars`: a name that is not a directory is a variable holding one.
      if (inv.st.extras.shopts.has('cdable_vars') && /^[A-Za-z_][A-Za-z0-9_]*$/.test(target.value)) {
        const v = inv.st.vars.get(target.value);
        if (v) {
          const alt = interp.resolveCd(inv.st, { value: v.value, confidence: v.confidence, evidence: v.evidence, glob: false }, inv.range, physical);
          const note = { range: inv.range, note: `cdable_vars: \`cd ${target.value}\` may go to $${target.value} (${displayPath(v.value)})` };
          next = alt.paths && next.paths
            ? { paths: [...new Set([...alt.paths, ...next.paths])], confidence: 'likely', evidence: [...alt.evidence, note], changed: true }
            : { paths: null, confidence: 'possible', evidence: [...alt.evidence, note], changed: true };
        }
      }
      // CDPATH: bash tries each entry before the cwd for a name not starting with /, ./ or ../.
      const cdpath = inv.env.get('CDPATH')?.value ?? inv.st.vars.get('CDPATH')?.value;
      if (cdpath && !/^(\/|\.\/|\.\.\/|\.$|\.\.$)/.test(target.value) && !target.value.includes(HOLE) && next.paths) {
        const candidates = cdpath.split(':').filter((d) => d !== '' && d !== '.' && !d.includes(HOLE));
        if (candidates.length > 0) {
          const alt = candidates.map((d) => interp.resolveCd(inv.st, { ...target, value: joinPath(d, target.value) }, inv.range, physical));
          const paths = [...new Set([...alt.flatMap((a) => a.paths ?? []), ...next.paths])];
          next = { paths, confidence: 'likely', evidence: [...next.evidence, { range: inv.range, note: `CDPATH=${cdpath}: \`cd ${target.value}\` may go to ${paths.join(' or ')}` }], changed: true };
        }
      }
    }
    interp.setCwd(inv.st, next, inv.range, `${inv.shown} ${inv.args.map((a) => displayPath(a.value)).join(' ')}`.trim());
  },
};

const pushd: CommandSpec = {
  category: 'builtin',
  run(inv, interp) {
    const args = inv.args.filter((a) => a.value !== '-n');
    const noChdir = args.length !== inv.args.length;
    const t = args[0];
    const label = `pushd ${args.map((a) => displayPath(a.value)).join(' ')}`.trim();
    if (noChdir && t && !/^[+-]\d+$/.test(t.value)) {
      // `pushd -n DIR`: DIR goes on the stack, the cwd stays.
      inv.st.dirStack.push(interp.resolveCd(inv.st, t, inv.range, false));
      return;
    }
    if (!t) {
      const top = inv.st.dirStack.pop();
      if (top) {
        inv.st.dirStack.push(inv.st.cwd);
        interp.setCwd(inv.st, top, inv.range, label);
      }
      return;
    }
    if (/^[+-]\d+$/.test(t.value)) {
      interp.setCwd(inv.st, { paths: null, confidence: 'possible', evidence: [{ range: inv.range, note: `\`${label}\` rotates the directory stack` }], changed: true }, inv.range, label);
      return;
    }
    const next = interp.resolveCd(inv.st, t, inv.range, false);
    inv.st.dirStack.push(inv.st.cwd);
    interp.setCwd(inv.st, next, inv.range, label);
  },
};

const popd: CommandSpec = {
  category: 'builtin',
  run(inv, interp) {
    const args = inv.args.filter((a) => a.value !== '-n');
    if (args[0] && /^[+-]\d+$/.test(args[0].value)) {
      inv.st.dirStack = [];
      return;
    }
    const top = inv.st.dirStack.pop();
    const next: CwdValue = top ?? { paths: null, confidence: 'possible', evidence: [{ range: inv.range, note: '`popd` with a directory stack not known statically' }], changed: true };
    interp.setCwd(inv.st, { ...next, evidence: [...next.evidence, { range: inv.range, note: `cwd returned to ${next.paths?.join(', ') ?? 'an unknown directory'} at \`popd\` (${inv.range.line}:${inv.range.column})` }], changed: true }, inv.range, 'popd');
  },
};

const evalSpec: CommandSpec = {
  category: 'shell',
  run(inv, interp) {
    const src = inv.args.map((a) => a.value).join(' ');
    if (src.includes(HOLE)) {
      interp.dynamicProblem('eval of a string that cannot be known statically', displayPath(src), inv.range);
      return;
    }
    interp.runNested(src, inv.st, inv.range, 'eval');
  },
};

const source: CommandSpec = {
  category: 'shell',
  run(inv, interp) {
    const f = inv.args[0];
    if (f) interp.sourceFile(f, inv.st, inv.range);
  },
};

const exit: CommandSpec = { category: 'builtin', silent: true, run(inv) { inv.st.terminated = true; } };
const ret: CommandSpec = { category: 'builtin', silent: true, run(inv) { inv.st.returned = true; } };

const unset: CommandSpec = {
  category: 'builtin',
  silent: true,
  run(inv) {
    for (const a of inv.args) if (!a.value.startsWith('-')) dropVar(inv.st, a.value);
  },
};

/** `read X`, `mapfile X`, `printf -v X`: the variable's value becomes unknown. */
const readVar: CommandSpec = {
  category: 'builtin',
  silent: true,
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'adinNptuCcOsv' });
    const names = inv.name === 'printf' ? optionValues(p, '-v').map((f) => f.value) : p.operands.map((f) => f.value);
    if (inv.name === 'printf') {
      if (names.length === 0) return;
      const rest = p.operands;
      const value = rest[0]?.value === '%s' && rest[1] ? rest[1].value : HOLE;
      for (const n of names) interp.setVar(inv.st, n, value, value.includes(HOLE) ? 'possible' : 'likely', [{ range: inv.range, note: `${n} set by printf -v` }]);
      return;
    }
    const list = names.length > 0 ? names : [inv.name === 'read' ? 'REPLY' : 'MAPFILE'];
    for (const n of list) if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(n)) interp.setVar(inv.st, n, HOLE, 'possible', [{ range: inv.range, note: `${n} is read from input` }]);
  },
};

const mktemp: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    if (inv.args.some((a) => a.value === '-u' || a.value === '--dry-run')) return;
    // `--tmpdir[=DIR]` takes its value only with `=`; a bare `--tmpdir` means $TMPDIR.
    const p = parseArgs(inv.args, { short: 'p', long: ['suffix'] });
    const dirOpt = p.options.find((o) => o.name === '-p' || o.name === '--tmpdir');
    const tmpdir = envOf(inv, 'TMPDIR');
    const tmp = tmpdir?.value || '/tmp';
    const dir = dirOpt ? (dirOpt.value && dirOpt.value.value !== '' ? dirOpt.value.value : tmp) : null;
    const template = p.operands[0];
    let path: string;
    if (template) {
      // The random part is one file name component: keep the template's X's (no `/` can appear),
      // so the directory it lands in is as certain as the template.
      const name = template.value;
      if (name.startsWith('/')) path = name;
      // `-t`: $TMPDIR if set, else the -p directory, else /tmp.
      else if (hasOption(p, '-t')) path = joinPath(tmpdir?.value || dir || '/tmp', name);
      else if (dir !== null) path = joinPath(dir, name);
      else path = name;
    } else path = joinPath(dir ?? tmp, 'tmp.XXXXXXXXXX');
    const movedBy = tmpdir && !tmpdir.fromEnvironment && !path.startsWith('/tmp/') ? [{ range: inv.range, note: `TMPDIR=${displayPath(tmpdir.value)} moves where mktemp writes` }] : [];
    interp.write(hasOption(p, '-d', '--directory') ? 'mkdir' : 'create', { value: path, confidence: template?.confidence ?? tmpdir?.confidence ?? 'certain', evidence: [...(template?.evidence ?? []), ...movedBy], glob: false }, inv.st, inv.range, 'mktemp');
  },
};


// ---------------------------------------------------------------- the table

const SUDO_GRAMMAR: OptionGrammar = { short: 'CDghpRrTtUu', long: ['close-from', 'chdir', 'group', 'host', 'prompt', 'chroot', 'role', 'command-timeout', 'type', 'other-user', 'user'] };

const vi: CommandSpec = writes({ grammar: { short: 'cSiTuwW', long: [] }, operands: 'each', op: 'modify' });

const shells = ['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox-sh', 'rbash', 'yash', 'posh'];

const OWN: Record<string, () => CommandSpec> = {
  // files and directories
  touch: () => ex(writes({ grammar: { short: 'rdt', long: ['reference', 'date', 'time'] }, operands: 'each', op: 'create' }), [['touch ../../x', 'deny'], ['touch x', 'allow'], ['touch --no-create=../../x y', 'ask']]),
  mkdir: () => writes({ grammar: { short: 'mZ', long: ['mode', 'context'] }, operands: 'each', op: 'mkdir' }),
  rm: () => ex(writes({ grammar: {}, operands: 'each', op: 'delete', subtreeFlags: ['-r', '-R', '--recursive'] }), [['rm -rf ../b2/src', 'deny'], ['rm -rf build', 'allow'], ['rm -rf .claude', 'allow']]),
  rmdir: () => writes({ grammar: {}, operands: 'each', op: 'delete' }),
  unlink: () => writes({ grammar: {}, operands: 'each', op: 'delete' }),
  shred: () => writes({ grammar: { short: 'ns', long: ['iterations', 'size', 'random-source'] }, operands: 'each', op: 'modify' }),
  truncate: () => writes({ grammar: { short: 'sr', long: ['size', 'reference'] }, operands: 'each', op: 'modify' }),
  chmod: () => chmodLike(true),
  chown: () => chmodLike(true),
  chgrp: () => chmodLike(true),
  chattr: () => chmodLike(true),
  setfacl: () => writes({ grammar: { short: 'mMxX', long: ['modify', 'modify-file', 'remove', 'remove-file', 'set', 'set-file'] }, operands: 'each', op: 'chmod' }),
  cp: () => ex(writes({ grammar: { short: 'tS', long: ['target-directory', 'suffix'] }, operands: 'dest-last', op: 'write', targetDir: ['-t', '--target-directory'], subtreeFlags: ['-r', '-R', '-a', '--recursive', '--archive'] }), [['cp README.md ../../x', 'deny'], ['cp ../../README.md x', 'allow'], ['cp settings.local.json .claude/', 'deny'], ['cp -r /tmp/tpl/. .', 'ask'], ['cp -r /tmp/tpl/. build/', 'allow']]),
  mv: () => ex(writes({ grammar: { short: 'tS', long: ['target-directory', 'suffix'] }, operands: 'dest-last', op: 'move', sources: 'delete', targetDir: ['-t', '--target-directory'] }), [['mv x ../../x', 'deny'], ['mv /tmp/tpl .claude', 'deny'], ['mv /tmp/tpl build', 'allow']]),
  install: () => writes({ grammar: { short: 'mogtSZ', long: ['mode', 'owner', 'group', 'target-directory', 'suffix', 'context'] }, operands: 'dest-last', op: 'write', targetDir: ['-t', '--target-directory'], flagOps: { '-d': 'mkdir', '--directory': 'mkdir' } }),
  ln: () => ex(writes({ grammar: { short: 'tS', long: ['target-directory', 'suffix'] }, operands: 'dest-last', op: 'link', targetDir: ['-t', '--target-directory'] }), [['ln ~/.claude/settings.json /tmp/x', 'deny'], ['ln README.md /tmp/x', 'allow'], ['ln -s ~/.claude/settings.json /tmp/x', 'allow']]),
  link: () => writes({ grammar: {}, operands: 'dest-last', op: 'link' }),
  tee: () => ex(writes({ grammar: { long: ['output-error'] }, operands: 'each', op: 'write', flagOps: { '-a': 'append', '--append': 'append' } }), [['echo x | tee ../../x', 'deny'], ['echo x | tee x', 'allow']]),
  dd: () => dd,
  sort: () => writes({ grammar: { short: 'ktoST', long: ['key', 'field-separator', 'output', 'buffer-size', 'temporary-directory', 'parallel', 'batch-size', 'compress-program', 'files0-from', 'random-source', 'sort'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }),
  split: () => split,
  csplit: () => csplit,
  rsync: () => writes({ grammar: { short: 'eBfT', long: ['rsh', 'rsync-path', 'exclude', 'include', 'exclude-from', 'include-from', 'filter', 'files-from', 'temp-dir', 'partial-dir', 'log-file', 'password-file', 'backup-dir', 'chmod', 'chown', 'compare-dest', 'copy-dest', 'link-dest', 'timeout', 'bwlimit', 'suffix', 'max-size', 'min-size', 'out-format', 'port'] }, operands: 'dest-last', op: 'write', subtreeFlags: ['-r', '-a', '--recursive', '--archive'], optionWrites: { '--log-file': 'append', '--backup-dir': 'extract' } }),
  scp: () => writes({ grammar: { short: 'cFiJlLoPS', long: [] }, operands: 'dest-last', op: 'write', subtreeFlags: ['-r'] }),
  tar: () => ex(tar, [['tar -xf /tmp/a.tar', 'ask'], ['tar -xf /tmp/a.tar -C build', 'allow'], ['tar -xf /tmp/a.tar -C ../..', 'deny'], ['tar -tf /tmp/a.tar', 'allow']]),
  unzip: () => ex(unzip, [['unzip -o /tmp/a.zip', 'ask'], ['unzip -o /tmp/a.zip -d build', 'allow'], ['unzip -l /tmp/a.zip', 'allow'], ['unzip /tmp/a.zip README.md', 'allow']]),
  zip: () => ({ category: 'writes', silent: true, run(inv, interp) { const p = parseArgs(inv.args, { short: 'bnOtxi', long: [] }); const a = p.operands[0]; if (a && !hasOption(p, '-T', '--test')) interp.write('write', a, inv.st, inv.range, 'zip'); } }),
  gzip: () => writes({ grammar: { short: 'S', long: ['suffix'] }, operands: 'each', op: 'modify', noWriteFlags: ['-c', '--stdout', '-l', '--list', '-t', '--test'] }),
  gunzip: () => writes({ grammar: { short: 'S', long: ['suffix'] }, operands: 'each', op: 'modify', noWriteFlags: ['-c', '--stdout', '-l', '--list', '-t', '--test'] }),
  bzip2: () => writes({ grammar: {}, operands: 'each', op: 'modify', noWriteFlags: ['-c', '--stdout', '-t', '--test'] }),
  bunzip2: () => writes({ grammar: {}, operands: 'each', op: 'modify', noWriteFlags: ['-c', '--stdout', '-t', '--test'] }),
  xz: () => writes({ grammar: { short: 'STF', long: ['suffix', 'threads', 'format'] }, operands: 'each', op: 'modify', noWriteFlags: ['-c', '--stdout', '-l', '--list', '-t', '--test'] }),
  unxz: () => writes({ grammar: {}, operands: 'each', op: 'modify', noWriteFlags: ['-c', '--stdout', '-l', '--list', '-t', '--test'] }),
  zstd: () => writes({ grammar: { short: 'oD', long: ['output'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write' } }),
  patch: () => ex(patch, [['patch -p1 < /tmp/unknown.diff', 'ask'], ['patch README.md /tmp/x.diff', 'allow'], ['patch -d ../.. -p1 < /tmp/x.diff', 'deny']]),
  curl: () => curl,
  wget: () => ex(wget, [['wget https://example.com/a.tgz', 'allow'], ['wget -O ../../a.tgz https://example.com/a.tgz', 'deny'], ['wget -r https://example.com/', 'ask']]),
  mktemp: () => mktemp,
  sed: () => sed,
  vi: () => vi, vim: () => vi, nvim: () => vi, nano: () => vi, emacs: () => vi, ed: () => vi, ex: () => vi, code: () => vi, subl: () => vi, gedit: () => vi, kate: () => vi, micro: () => vi, hx: () => vi, helix: () => vi, joe: () => vi, mcedit: () => vi,
  // wrappers
  sudo: () => wrapper({ grammar: SUDO_GRAMMAR, chdir: ['-D', '--chdir'], assignments: true, noRunFlags: ['-l', '--list', '-v', '--validate', '-k', '-K', '-V', '-e', '--edit'] }),
  doas: () => wrapper({ grammar: { short: 'uC' } }),
  env: () => wrapper({ grammar: { short: 'uCS', long: ['unset', 'chdir', 'split-string'] }, chdir: ['-C', '--chdir'], assignments: true, splitString: ['-S', '--split-string'] }),
  busybox: () => wrapper({ grammar: {} }),
  nice: () => wrapper({ grammar: { short: 'n', long: ['adjustment'] } }),
  nohup: () => wrapper({ grammar: {} }),
  timeout: () => wrapper({ grammar: { short: 'sk', long: ['signal', 'kill-after'] }, skip: 1 }),
  time: () => wrapper({ grammar: { short: 'fo', long: ['format', 'output'] } }),
  stdbuf: () => wrapper({ grammar: { short: 'ioe', long: ['input', 'output', 'error'] } }),
  command: () => wrapper({ grammar: {}, noRunFlags: ['-v', '-V'] }),
  builtin: () => wrapper({ grammar: {} }),
  exec: () => wrapper({ grammar: { short: 'a' } }),
  chrt: () => wrapper({ grammar: {}, skip: 1 }),
  ionice: () => wrapper({ grammar: { short: 'cnpPu', long: ['class', 'classdata', 'pid', 'pgid', 'uid'] } }),
  taskset: () => wrapper({ grammar: {}, skip: 1 }),
  setsid: () => wrapper({ grammar: {} }),
  unbuffer: () => wrapper({ grammar: {} }),
  fakeroot: () => wrapper({ grammar: { short: 'is', long: ['lib', 'faked'] } }),
  caffeinate: () => wrapper({ grammar: { short: 'tw' } }),
  strace: () => wrapper({ grammar: { short: 'abeEIoOpPsSuU', long: [] } }),
  ltrace: () => wrapper({ grammar: { short: 'aeEnopsSuxX' } }),
  valgrind: () => wrapper({ grammar: {} }),
  xvfb_run: () => wrapper({ grammar: { short: 'nsefpw' } }),
  'xvfb-run': () => wrapper({ grammar: { short: 'nsefpw' } }),
  runuser: () => commandString({ short: 'ugGc', long: ['user', 'group', 'supp-group', 'command'] }, '-c', true),
  su: () => commandString({ short: 'cgGs', long: ['command', 'group', 'supp-group', 'shell'] }, '-c', false),
  watch: () => commandString({ short: 'nqd', long: ['interval', 'differences', 'equexit'] }, null, true),
  script: () => commandString({ short: 'cEIOBT', long: ['command', 'echo', 'log-in', 'log-out', 'log-io', 'log-timing'] }, '-c', false),
  flock: () => flock,
  xargs: () => xargs,
  parallel: () => parallel,
  find: () => find,
  // shells and shell code
  eval: () => evalSpec,
  source: () => source,
  '.': () => source,
  // builtins with state
  cd: () => cd,
  pushd: () => pushd,
  popd: () => popd,
  exit: () => exit,
  logout: () => exit,
  return: () => ret,
  unset: () => unset,
  read: () => readVar,
  mapfile: () => readVar,
  readarray: () => readVar,
  printf: () => ({ category: 'builtin', run: (inv, interp) => (inv.args[0]?.value === '-v' ? readVar.run(inv, interp) : undefined) }),
  git: () => ex({ category: 'git', run: runGit }, [
    ['git commit -qm x', 'allow'], ['git -C ../.. commit -qm x', 'deny'], ['git update-ref refs/heads/b2 HEAD~1', 'deny'], ['git update-ref refs/heads/b1 HEAD~1', 'allow'],
    ['git push -q . HEAD:b2', 'deny'], ['git fetch -q . HEAD:main', 'deny'], ['git branch -f topic', 'ask'], ['git gc', 'ask'], ['git maintenance run', 'ask'], ['git replace HEAD HEAD~1', 'ask'],
    ['git pack-refs --all', 'ask'], ['git reflog expire --all', 'ask'], ['git tag v1', 'ask'], ['git notes add -m x', 'ask'], ['git frobnicate', 'ask'], ['git status', 'allow'],
    ['git init -q --separate-git-dir=/tmp/g', 'deny'], ['git init -q /tmp/newrepo', 'allow'], ['git checkout HEAD~1 -- .', 'ask'], ['git checkout HEAD~1 -- src', 'allow'], ['git stash pop', 'ask'], ['git stash list', 'allow'],
    ['git log --frob-file=../../x', 'ask'], ['git log --frob-file=x', 'allow'],
  ]),
  // inline code in other languages
  python: () => code({ grammar: { short: 'cmWXQ' }, codeOptions: ['-c'], argvOperands: true }),
  python3: () => code({ grammar: { short: 'cmWXQ' }, codeOptions: ['-c'], argvOperands: true }),
  python2: () => code({ grammar: { short: 'cmWXQ' }, codeOptions: ['-c'], argvOperands: true }),
  node: () => code({ grammar: { short: 'epr', long: ['eval', 'print', 'require', 'import', 'loader'] }, codeOptions: ['-e', '-p', '--eval', '--print'] , argvOperands: true }),
  deno: () => code({ grammar: {}, codeOptions: [] }),
  bun: () => code({ grammar: { short: 'e', long: ['eval'] }, codeOptions: ['-e', '--eval'] }),
  perl: () => code({ grammar: { short: 'eEIMmlx0dDC', long: [] }, codeOptions: ['-e', '-E'], inPlace: '-i' }),
  ruby: () => code({ grammar: { short: 'eIrECFTx', long: [] }, codeOptions: ['-e'], inPlace: '-i' }),
  php: () => code({ grammar: { short: 'rBREFcdz' }, codeOptions: ['-r'] }),
  lua: () => code({ grammar: { short: 'el' }, codeOptions: ['-e'] }),
  Rscript: () => code({ grammar: { short: 'e' }, codeOptions: ['-e'] }),
  osascript: () => code({ grammar: { short: 'el' }, codeOptions: ['-e'] }),
  awk: () => code({ grammar: { short: 'fvF' }, codeOptions: [], programOperand: true }),
  gawk: () => code({ grammar: { short: 'fvFeiIlLE', long: ['file', 'assign', 'field-separator', 'source', 'include', 'load'] }, codeOptions: ['-e', '--source'], programOperand: true, inPlace: '-i' }),
  mawk: () => code({ grammar: { short: 'fvFW' }, codeOptions: [], programOperand: true }),
  nawk: () => code({ grammar: { short: 'fvF' }, codeOptions: [], programOperand: true }),
  // project tools: write below their project directory
  make: () => project(['-C', '--directory'], { short: 'CfIjlo', long: ['directory', 'file', 'makefile', 'include-dir', 'jobs', 'load-average'] }, [], ['-f', '--file', '--makefile', '-I', '--include-dir', '-j', '--jobs', '-l', '--load-average', '-o']),
  gmake: () => project(['-C', '--directory'], { short: 'CfIjlo', long: ['directory', 'file', 'makefile', 'include-dir', 'jobs'] }, [], ['-f', '--file', '--makefile', '-I', '--include-dir', '-j', '--jobs', '-l', '-o']),
  npm: () => project(['--prefix', '-C'], { short: 'wC', long: ['prefix', 'workspace'] }, ['view', 'info', 'show', 'ls', 'list', 'outdated', 'search', 'help', 'config', 'whoami', 'ping', 'root', 'bin', 'prefix', 'explain', 'why', 'fund', 'docs', 'repo', 'bugs'], ['-w', '--workspace']),
  yarn: () => project(['--cwd'], { long: ['cwd'] }, ['info', 'list', 'why', 'help', 'config', 'outdated']),
  pnpm: () => project(['-C', '--dir', '--prefix'], { short: 'C', long: ['dir', 'prefix', 'filter'] }, ['view', 'info', 'ls', 'list', 'why', 'outdated', 'help', 'config'], ['--filter']),
  npx: () => project(['--prefix'], { long: ['prefix', 'package'], stopAtOperand: true }, [], ['--package']),
  cargo: () => project(['--manifest-path', '--target-dir', '-C'], { short: 'pjZC', long: ['manifest-path', 'target-dir', 'package', 'jobs', 'features', 'target', 'profile', 'config'] }, ['metadata', 'tree', 'search', 'help', 'version', 'locate-project', 'read-manifest', 'verify-project'], ['-p', '--package', '-j', '--jobs', '--features', '--target', '--profile', '--config', '-Z']),
  go: () => project(['-C'], { short: 'oC' }, ['version', 'env', 'list', 'doc', 'help', 'vet'], ['-o']),
  pip: () => project(['--target', '-t', '--prefix', '--root'], { short: 'trec', long: ['target', 'prefix', 'root', 'requirement', 'constraint', 'editable'] }, ['list', 'show', 'freeze', 'search', 'help', 'check', 'config', 'debug'], ['-r', '--requirement', '-c', '--constraint', '--index-url', '--extra-index-url', '--find-links', '--python-version', '--platform']),
  pip3: () => project(['--target', '-t', '--prefix', '--root'], { short: 'trec', long: ['target', 'prefix', 'root', 'requirement', 'constraint', 'editable'] }, ['list', 'show', 'freeze', 'search', 'help', 'check', 'config', 'debug'], ['-r', '--requirement', '-c', '--constraint', '--index-url', '--extra-index-url', '--find-links', '--python-version', '--platform']),
  cmake: () => project(['-B', '--build', '-S', '--install'], { short: 'BSDGCTAUj', long: ['build', 'install', 'prefix', 'config', 'target', 'parallel'] }, [], ['-G', '-C', '-T', '-A', '-U', '-j', '--parallel', '--config', '--target']),
  ninja: () => project(['-C'], { short: 'Cfjkl' }, [], ['-f', '-j', '-k', '-l']),
  mvn: () => project(['-f', '--file'], { short: 'fsDPplbT' }, [], ['-s', '-D', '-P', '-p', '-b', '-T']),
  gradle: () => project(['-p', '--project-dir'], { short: 'pbc' }, [], ['-b', '-c']),
  gradlew: () => project(['-p', '--project-dir'], { short: 'pbc' }, [], ['-b', '-c']),
  pytest: () => project(['--rootdir', '--basetemp'], { short: 'kmpcorx', long: ['rootdir', 'basetemp'] }, []),
  tsc: () => project(['--outDir', '-p', '--project'], { short: 'p', long: ['outDir', 'project', 'outFile'] }, []),
  prettier: () => ({ category: 'project', run: (inv, interp) => { if (inv.args.some((a) => a.value === '--write' || a.value === '-w')) for (const a of inv.args) if (!a.value.startsWith('-')) interp.write('modify', a, inv.st, inv.range, 'prettier --write', { subtree: true }); } }),
  eslint: () => ({ category: 'project', run: (inv, interp) => { if (inv.args.some((a) => a.value === '--fix')) for (const a of inv.args) if (!a.value.startsWith('-')) interp.write('modify', a, inv.st, inv.range, 'eslint --fix', { subtree: true }); } }),
};

/**
 * The table. A Map, not an object: adding hundreds of keys one by one to an object walks V8
 * through a hidden-class transition per key, ~1.5 ms of every hook process.
 */
const TABLE = new Map<string, () => CommandSpec>(Object.entries(OWN));
const shellEntry = () => shell;
for (const s of shells) TABLE.set(s, shellEntry);
/**
 * The entries are built on first lookup (a hook process looks up a handful of the ~300 names;
 * building them all was ~0.5 ms of every hook's start-up).
 */
const BUILT = new Map<string, CommandSpec>();
function ownSpec(name: string): CommandSpec | undefined {
  let spec = BUILT.get(name);
  if (spec === undefined) {
    const build = TABLE.get(name);
    if (build === undefined) return undefined;
    spec = build();
    BUILT.set(name, spec);
  }
  return spec;
}
/** Replaces `name`'s entry with `change` of it, still built on first lookup. */
function amend(name: string, change: (spec: CommandSpec) => CommandSpec): void {
  const base = TABLE.get(name)!;
  TABLE.set(name, () => {
    const b = base();
    const c = change(b);
    return b.examples && !c.examples ? { ...c, examples: b.examples } : c;
  });
}

// ---------------------------------------------------------------- closed world: data for the rest

/** Commands that only read their arguments (and print): no writes, whatever paths they are given. */
const READ_ONLY = [
  'cat', 'tac', 'nl', 'head', 'tail', 'more', 'ls', 'dir', 'vdir', 'stat', 'file', 'wc', 'du', 'df', 'grep', 'egrep', 'fgrep',
  'zgrep', 'zcat', 'bzcat', 'xzcat', 'zstdcat', 'zless', 'ag', 'ack', 'cut', 'tr', 'paste', 'join', 'comm', 'diff', 'diff3', 'cmp',
  'colordiff', 'expand', 'unexpand', 'fold', 'fmt', 'pr', 'column', 'rev', 'od', 'hexdump', 'strings', 'base32', 'base64', 'basenc',
  'md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'b2sum', 'cksum', 'sum', 'shasum', 'md5', 'jq', 'gojq',
  'which', 'whereis', 'whatis', 'apropos', 'man', 'info', 'realpath', 'readlink', 'basename', 'dirname', 'pathchk', 'date', 'cal',
  'id', 'whoami', 'groups', 'who', 'w', 'users', 'last', 'hostname', 'uname', 'arch', 'nproc', 'uptime', 'free', 'vmstat', 'iostat',
  'ps', 'pgrep', 'pidof', 'top', 'htop', 'lsof', 'lscpu', 'lsblk', 'lsusb', 'lspci', 'lsmod', 'getconf', 'locale', 'printenv',
  'tput', 'tty', 'stty', 'clear', 'reset', 'seq', 'yes', 'sleep', 'expr', 'factor', 'numfmt', 'tsort', 'look', 'bc',
  'getent', 'nslookup', 'dig', 'host', 'ping', 'ping6', 'traceroute', 'ss', 'netstat', 'ip', 'ifconfig', 'route',
  'kill', 'pkill', 'killall', 'xdg-open', 'open', 'pbcopy', 'pbpaste', 'xclip', 'xsel', 'wl-copy', 'wl-paste', 'cowsay',
  'figlet', 'lolcat', 'fortune', 'shellcheck', 'checkbashisms', 'hadolint', 'yamllint', 
  'ldd', 'nm', 'objdump', 'readelf', 'size', 'locate',
  'mlocate', 'plocate', 'tldr', 'lsattr', 'getfacl', 'namei', 'findmnt', 'mountpoint', 'dmesg',
  'journalctl', 'systemd-analyze', 'nvidia-smi', 'dust', 'duf', 'bat', 'batcat', 'exa', 'eza', 'lsd', 'fzf', 'delta', 'difft', 'jless', 'glow', 
];

const readOnly: CommandSpec = { category: 'read', run() {} };

/**
 * Bash builtins that are plain data here: they write no file. Builtins with behaviour (cd,
 * read, eval, exec ...) have their own entries above; trap, alias, hash and shopt belong to the
 * interpreter (INTERPRETER_BUILTINS in src/engine/interpret/builtins.ts).
 */
const SILENT_BUILTINS = ['true', 'false', ':', 'break', 'continue', 'shift', 'let', 'local', 'export', 'readonly', 'wait', 'disown', 'suspend'];
const PRINTING_BUILTINS = ['test', '[', 'echo', 'pwd', 'type', 'help', 'jobs', 'bg', 'fg', 'kill', 'ulimit', 'umask', 'times', 'getopts', 'caller', 'compgen', 'complete', 'compopt', 'dirs', 'bind', 'set', 'declare', 'typeset', 'fc', 'logout'];

/** `history -w|-a FILE` writes FILE; `enable -f LIB` loads a builtin from a shared object. */
const history: CommandSpec = {
  category: 'builtin',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'd' });
    if (hasOption(p, '-w', '-a') && p.operands[0]) interp.write(hasOption(p, '-a') ? 'append' : 'write', p.operands[0], inv.st, inv.range, 'history');
  },
};
const enable: CommandSpec = {
  category: 'builtin',
  silent: true,
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'f' });
    const lib = optionValues(p, '-f')[0];
    if (lib) interp.dynamicProblem(`enable -f loads builtins from ${displayPath(lib.value)}, code that is not analyzed`, `enable -f ${displayPath(lib.value)}`, inv.range);
  },
};

// ---- writers found through the tldr pages (options that name an output)

/** `-out FILE`, `-keyout FILE` (single-dash long options): openssl and friends. */
function singleDashOutputs(options: Record<string, WriteOp>): CommandSpec {
  return {
    category: 'writes',
    run(inv, interp) {
      const a = inv.args;
      for (let i = 0; i < a.length; i++) {
        const v = a[i]!.value;
        const eq = v.indexOf('=');
        const name = eq > 0 ? v.slice(0, eq) : v;
        const op = options[name];
        if (!op) continue;
        const f = eq > 0 ? { ...a[i]!, value: v.slice(eq + 1) } : a[++i];
        if (f && f.value !== '-' && f.value !== '/dev/stdout') interp.write(op, f, inv.st, inv.range, `${inv.name} ${name}`);
      }
    },
  };
}

const CC_VALUE = new Set(['-I', '-L', '-l', '-D', '-U', '-x', '-include', '-imacros', '-isystem', '-idirafter', '-iquote', '-iprefix', '-MT', '-MQ', '-Xlinker', '-Xassembler', '-Xpreprocessor', '-T', '-u', '-e', '-z', '-arch', '-target', '-framework', '-ccbin', '-gencode', '-Xcompiler', '-std', '-aux-info', '-wrapper']);
const SOURCE = /\.(?:c|cc|cpp|cxx|c\+\+|C|m|mm|s|S|sx|f|f90|f95|for|cu|go|rs|adb|ads|d)$/;

/** gcc, clang, cc, c++, nvcc, gfortran: `-o FILE`, `-MF FILE`, else a.out / *.o in the cwd. */
const cc: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const a = inv.args;
    let out: Field | null = null;
    const sources: Field[] = [];
    const flags = new Set<string>();
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!.value;
      if (v === '-o' || v === '-MF') {
        const f = a[++i];
        if (f && v === '-o') out = f;
        else if (f) interp.write('write', f, inv.st, inv.range, `${inv.name} -MF`);
        continue;
      }
      if (v.startsWith('-o') && v.length > 2) {
        out = { ...a[i]!, value: v.slice(2) };
        continue;
      }
      if (CC_VALUE.has(v)) {
        i++;
        continue;
      }
      if (v.startsWith('-')) {
        flags.add(v);
        continue;
      }
      if (SOURCE.test(v)) sources.push(a[i]!);
    }
    if (flags.has('-E') || flags.has('-fsyntax-only') || flags.has('--version') || flags.has('-v') || flags.has('--help') || [...flags].some((f) => f.startsWith('-dump') || f.startsWith('-print-'))) {
      if (out && out.value !== '-') interp.write('write', out, inv.st, inv.range, `${inv.name} -o`);
      return;
    }
    if (out) {
      if (out.value !== '-') interp.write('write', out, inv.st, inv.range, `${inv.name} -o`);
      return;
    }
    if (sources.length === 0) return;
    const cwdFile = (name: string): Field => ({ value: name, confidence: 'likely', evidence: [{ range: inv.range, note: `\`${inv.name}\` writes ${name} in the cwd` }], glob: false });
    if (flags.has('-c') || flags.has('-S')) {
      for (const s of sources) interp.write('write', cwdFile(basenameOf(s.value).replace(/\.[^.]+$/, flags.has('-c') ? '.o' : '.s')), inv.st, inv.range, inv.name);
    } else interp.write('write', cwdFile('a.out'), inv.st, inv.range, inv.name);
  },
};

/** sqlite3 DB [SQL]: statements and dot-commands that write the database or other files. */
const SQLITE_VALUE = new Set(['-cmd', '-init', '-separator', '-newline', '-nullvalue', '-mmap', '-lookaside', '-pagecache', '-vfs', '-maxsize', '-heap', '-pcachetrace', '-A', '-escape']);
const sqlite3: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const a = inv.args;
    const operands: Field[] = [];
    const cmds: string[] = [];
    let readonly = false;
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!.value;
      if (operands.length === 0 && v.startsWith('-') && v !== '-') {
        const name = v.replace(/^--/, '-');
        if (name === '-readonly' || name === '-safe') readonly = true;
        if (name === '-cmd' && a[i + 1]) cmds.push(a[i + 1]!.value);
        if (SQLITE_VALUE.has(name)) i++;
        continue;
      }
      operands.push(a[i]!);
    }
    const db = operands[0];
    const given = [...cmds, ...operands.slice(1).map((f) => f.value)];
    const stdin = inv.stdin.kind === 'text' ? inv.stdin : null;
    if (given.length === 0 && stdin) given.push(stdin.text);
    const sql = given.join('\n');
    const known = !sql.includes(HOLE) && given.length > 0;
    const field = (value: string, conf: Confidence): Field => ({ value, confidence: conf, evidence: [{ range: inv.range, note: `sqlite3 writes ${displayPath(value)}` }], glob: false });
    for (const m of sql.matchAll(/^\s*\.(?:output|once|backup|save|excel)\s+(?:main\s+)?("[^"]+"|'[^']+'|\S+)/gm)) {
      const f = m[1]!.replace(/^['"]|['"]$/g, '');
      if (f !== 'stdout' && f !== '-e' && f !== '-x') interp.write('write', field(f, 'likely'), inv.st, inv.range, 'sqlite3 .output');
    }
    for (const m of sql.matchAll(/\b(?:attach(?:\s+database)?|vacuum(?:\s+\w+)?\s+into)\s+'([^']+)'/gi)) interp.write('write', field(m[1]!, 'likely'), inv.st, inv.range, 'sqlite3');
    for (const m of sql.matchAll(/^\s*\.(?:shell|system)\s+(.+)$/gm)) interp.runNested(m[1]!, interp.child(inv.st), inv.range, 'sqlite3 .shell');
    if (!db || db.value === ':memory:' || db.value === '' || readonly) return;
    if (!known) {
      // Statements from a terminal or an unknown stdin: any of them may write the database.
      interp.write('modify', { ...db, confidence: 'possible' }, inv.st, inv.range, 'sqlite3');
      return;
    }
    // Opening a database file creates it (even to read); statements that change it modify it.
    const changes = /\b(?:create|insert|update|delete|drop|alter|replace|vacuum|reindex|analyze)\b|^\s*\.(?:import|restore|load|recover)\b/im.test(sql);
    if (given.length > 0) interp.write(changes ? 'modify' : 'create', db, inv.st, inv.range, 'sqlite3');
  },
};

/** ssh-keygen: `-f FILE` names the key written (and FILE.pub) or the file changed (-p, -c, -R). */
const sshKeygen: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'abCDEFfGIJjKMmNnOPRrSstVwYZz' });
    const file = optionValues(p, '-f')[0];
    if (hasOption(p, '-l', '-B', '-y', '-F', '-e', '-i', '-r', '-k', '-Q', '-D', '-H', '-T', '-?', '-h')) return;
    if (hasOption(p, '-A')) return; // host keys under /etc/ssh: outside any checkout, reported by path below if -f
    if (hasOption(p, '-p', '-c', '-R', '-u')) {
      if (file) interp.write('modify', file, inv.st, inv.range, 'ssh-keygen -f');
      return;
    }
    if (hasOption(p, '-s')) {
      for (const k of p.operands) interp.write('write', { ...k, value: k.value.replace(/\.pub$/, '') + '-cert.pub' }, inv.st, inv.range, 'ssh-keygen -s');
      return;
    }
    if (hasOption(p, '-Y')) {
      if (optionValues(p, '-Y')[0]?.value === 'sign') for (const k of p.operands) interp.write('write', { ...k, value: `${k.value}.sig` }, inv.st, inv.range, 'ssh-keygen -Y sign');
      return;
    }
    if (file) {
      interp.write('write', file, inv.st, inv.range, 'ssh-keygen -f');
      interp.write('write', { ...file, value: `${file.value}.pub` }, inv.st, inv.range, 'ssh-keygen -f');
      return;
    }
    const home = envOf(inv, 'HOME');
    const type = optionValues(p, '-t')[0]?.value ?? 'ed25519';
    interp.write('write', { value: `${home?.value ?? HOLE}/.ssh/id_${type.replace(/-.*/, '')}`, confidence: 'possible', evidence: [{ range: inv.range, note: 'ssh-keygen without -f asks where to save the key (default ~/.ssh)' }], glob: false }, inv.st, inv.range, 'ssh-keygen');
  },
};

/** cpio: -o writes the archive (-F/-O FILE), -i extracts into the cwd (-D DIR), -p DIR copies into DIR. */
const cpio: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'CDEFHIMORs', long: ['directory', 'file', 'format', 'pattern-file', 'message', 'owner', 'io-size', 'block-size', 'rsh-command'] });
    const dirs = optionValues(p, '-D', '--directory');
    const cwd = dirs.length > 0 ? interp.resolveCd(inv.st, dirs[dirs.length - 1]!, inv.range, false) : undefined;
    const here = { value: '.', confidence: 'certain' as const, evidence: [], glob: false };
    if (hasOption(p, '-t', '--list')) return;
    if (hasOption(p, '-o', '--create')) {
      for (const f of optionValues(p, '-F', '-O', '--file')) interp.write('write', f, inv.st, inv.range, 'cpio -o', { cwdOverride: cwd });
      return;
    }
    if (hasOption(p, '-p', '--pass-through')) {
      const dest = p.operands[0];
      if (dest) interp.write('extract', dest, inv.st, inv.range, 'cpio -p', { subtree: true, cwdOverride: cwd });
      return;
    }
    if (hasOption(p, '-i', '--extract')) interp.write('extract', here, inv.st, inv.range, 'cpio -i', { subtree: true, cwdOverride: cwd });
  },
};

/** dos2unix/unix2dos convert their operands in place; `-n IN OUT` writes OUT. */
const dos2unix: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const ops = inv.args.filter((a) => !a.value.startsWith('-'));
    if (inv.args.some((a) => a.value === '-O' || a.value === '--to-stdout' || a.value === '-i' || a.value === '--info')) return;
    const pairs = inv.args.some((a) => a.value === '-n' || a.value === '--newfile');
    ops.forEach((f, i) => {
      if (!pairs) interp.write('modify', f, inv.st, inv.range, inv.name);
      else if (i % 2 === 1) interp.write('write', f, inv.st, inv.range, `${inv.name} -n`);
    });
  },
};

/** Formatters that rewrite their operands unless asked to only check (`black`, `isort`, `ruff format`). */
function formatter(checkFlags: string[], fixFlags: string[] | null, sub?: string[]): CommandSpec {
  return {
    category: 'writes',
    run(inv, interp) {
      let args = inv.args;
      if (sub) {
        const s = args.findIndex((a) => !a.value.startsWith('-'));
        if (s < 0 || !sub.includes(args[s]!.value)) return;
        if (args[s]!.value === 'check' && fixFlags && !args.some((a) => fixFlags.includes(a.value))) return;
        args = args.slice(s + 1);
      } else if (fixFlags && !args.some((a) => fixFlags.includes(a.value))) return;
      if (args.some((a) => checkFlags.includes(a.value))) return;
      for (const a of args) if (!a.value.startsWith('-')) interp.write('modify', a, inv.st, inv.range, inv.name, { subtree: true });
    },
  };
}

/** `python3 -m MODULE ARGS`: modules that write files, as data. */
const PY_MODULES: Record<string, (args: Field[], inv: Invocation, interp: CommandContext) => void> = {
  venv: (args, inv, interp) => {
    const p = parseArgs(args, { long: ['prompt', 'upgrade-deps'] });
    for (const d of p.operands) interp.write('extract', d, inv.st, inv.range, 'python -m venv', { subtree: true });
  },
  virtualenv: (args, inv, interp) => PY_MODULES.venv!(args, inv, interp),
  'json.tool': (args, inv, interp) => {
    const p = parseArgs(args, { long: ['indent'] });
    const out = p.operands[1];
    if (out && out.value !== '-') interp.write('write', out, inv.st, inv.range, 'python -m json.tool');
  },
  zipfile: (args, inv, interp) => {
    const p = parseArgs(args, { short: 'clet', long: ['create', 'list', 'extract', 'test', 'metadata-encoding'] });
    const created = optionValues(p, '-c', '--create')[0];
    if (created) interp.write('write', created, inv.st, inv.range, 'python -m zipfile -c');
    if (hasOption(p, '-e', '--extract') && p.operands[0]) interp.write('extract', p.operands[0], inv.st, inv.range, 'python -m zipfile -e', { subtree: true });
  },
  tarfile: (args, inv, interp) => {
    const p = parseArgs(args, { short: 'clet', long: ['create', 'list', 'extract', 'test', 'filter'] });
    const created = optionValues(p, '-c', '--create')[0];
    if (created) interp.write('write', created, inv.st, inv.range, 'python -m tarfile -c');
    if (hasOption(p, '-e', '--extract')) interp.write('extract', p.operands[0] ?? { value: '.', confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, 'python -m tarfile -e', { subtree: true });
  },
  gzip: (args, inv, interp) => {
    for (const f of args) if (!f.value.startsWith('-')) interp.write('write', { ...f, value: args.some((a) => a.value === '-d' || a.value === '--decompress') ? f.value.replace(/\.gz$/, '') : `${f.value}.gz` }, inv.st, inv.range, 'python -m gzip');
  },
  py_compile: (args, inv, interp) => {
    for (const f of args) if (!f.value.startsWith('-')) interp.write('extract', { ...f, value: `${dirnameOfArg(f.value)}/__pycache__` }, inv.st, inv.range, 'python -m py_compile', { subtree: true });
  },
  compileall: (args, inv, interp) => {
    const p = parseArgs(args, { short: 'dxirjeops', long: ['invalidation-mode', 'hardlink-dupes'] });
    for (const d of p.operands) interp.write('extract', d, inv.st, inv.range, 'python -m compileall', { subtree: true });
  },
  'http.server': () => {},
  pydoc: (args, inv, interp) => {
    if (args.some((a) => a.value === '-w')) for (const f of args) if (!f.value.startsWith('-')) interp.write('write', { ...f, value: `./${basenameOf(f.value)}.html` }, inv.st, inv.range, 'pydoc -w');
  },
};

function dirnameOfArg(v: string): string {
  const i = v.replace(/\/+$/, '').lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '' : v.slice(0, i);
}

const PY_VALUE = new Set(['-W', '-X', '-Q']);

/** python, python3 ...: `-c CODE`, `-m MODULE`, `- < stdin`, a script file (not analyzed). */
const python: CommandSpec = {
  category: 'code',
  run(inv, interp) {
    const a = inv.args;
    let i = 0;
    let mode: 'c' | 'm' | null = null;
    let attached: string | null = null;
    for (; i < a.length; i++) {
      const v = a[i]!.value;
      if (v === '--') {
        i++;
        break;
      }
      if (!v.startsWith('-') || v === '-') break;
      if (PY_VALUE.has(v)) {
        i++;
        continue;
      }
      const m = /^-[a-zA-Z]*?([cm])(.*)$/.exec(v);
      if (m && !v.startsWith('--')) {
        mode = m[1] as 'c' | 'm';
        attached = m[2] || null;
        break;
      }
    }
    pythonEnvWrites(inv, interp, a.slice(0, i));
    if (mode === 'c') {
      const codeField = attached !== null ? { ...a[i]!, value: attached } : a[i + 1];
      const rest = a.slice(attached !== null ? i + 1 : i + 2);
      if (!codeField) return;
      const sink = inlineCodeWrites(codeField.value, 'python', inv, interp, `inline ${inv.name} code`);
      if (sink) codeArguments(rest, inv, interp);
      return;
    }
    if (mode === 'm') {
      const mod = attached ?? a[i + 1]?.value;
      const rest = a.slice(attached !== null ? i + 1 : i + 2);
      if (!mod) return;
      const known = PY_MODULES[mod];
      if (known) return known(rest, inv, interp);
      const spec = lookupCommand(mod);
      if (spec && spec.category !== 'read') return spec.run({ ...inv, name: mod, shown: `${inv.shown} -m ${mod}`, args: rest }, interp);
      unknownCommand(inv, interp, rest, `${inv.name} -m ${mod}`);
      return;
    }
    const script = a[i];
    if ((!script || script.value === '-') && inv.stdin.kind === 'text' && inv.stdin.known) {
      const sink = inlineCodeWrites(inv.stdin.text, 'python', inv, interp, `${inv.name} code from stdin`);
      if (sink) codeArguments(a.slice(i + 1), inv, interp);
      return;
    }
    // `python3 tool.py ARGS`: the script is read, its arguments may be written (closed world).
    unknownCommand(inv, interp, a.slice(i + 1));
  },
};

/** PYTHONPYCACHEPREFIX moves every bytecode cache python writes (stdlib included) under that directory. */
function pythonEnvWrites(inv: Invocation, interp: CommandContext, options: Field[]): void {
  const prefix = envOf(inv, 'PYTHONPYCACHEPREFIX');
  if (!prefix || prefix.value === '' || options.some((o) => /^-[a-zA-Z]*B/.test(o.value)) || envOf(inv, 'PYTHONDONTWRITEBYTECODE')?.value) return;
  interp.write('extract', { value: prefix.value, confidence: prefix.confidence, evidence: [...prefix.evidence, { range: inv.range, note: `PYTHONPYCACHEPREFIX=${displayPath(prefix.value)}: python writes its bytecode caches there` }], glob: false }, inv.st, inv.range, `${inv.name} (PYTHONPYCACHEPREFIX)`, { subtree: true });
}

/**
 * pytest: the cache (`.pytest_cache`) goes in the rootdir (--rootdir, or the common ancestor of
 * the paths it is given), bytecode of test modules in `__pycache__` next to them.
 */
const pytest: CommandSpec = {
  category: 'project',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'kmpcorxnW', long: ['rootdir', 'basetemp', 'confcutdir', 'override-ini', 'deselect', 'ignore', 'ignore-glob', 'junitxml', 'junit-xml', 'log-file', 'durations', 'maxfail', 'tb', 'import-mode', 'capture', 'cov', 'cov-report', 'html', 'resultlog', 'report-log', 'log-level', 'cache-dir'] });
    if (hasOption(p, '--version', '-V', '-h', '--help', '--fixtures', '--markers')) return;
    const w = (op: WriteOp, f: Field, what: string, subtree = true) => interp.write(op, f, inv.st, inv.range, what, { subtree });
    for (const f of optionValues(p, '--junitxml', '--junit-xml', '--log-file', '--html', '--resultlog', '--report-log')) w('write', f, `pytest ${f.value}`, false);
    const basetemp = optionValues(p, '--basetemp')[0];
    if (basetemp) w('extract', basetemp, 'pytest --basetemp');
    const paths = p.operands.map((f) => ({ ...f, value: f.value.replace(/::.*$/, '') })).filter((f) => f.value !== '');
    const dirOf = (f: Field): string => (/\.py$/.test(f.value) ? dirnameOfArg(f.value) || '/' : f.value.replace(/\/+$/, '') || '/');
    const rootdir = optionValues(p, '--rootdir')[0] ?? (paths.length > 0 ? { ...paths[0]!, value: commonDir(paths.map(dirOf)) } : { value: '.', confidence: 'certain' as const, evidence: [], glob: false });
    const noCache = optionValues(p, '-p').some((f) => f.value === 'no:cacheprovider');
    const cacheDir = [...optionValues(p, '-o', '--override-ini')].map((f) => /^cache_dir=(.+)$/.exec(f.value)?.[1]).find(Boolean);
    if (!noCache) w('extract', { ...rootdir, value: cacheDir ? (cacheDir.startsWith('/') ? cacheDir : `${rootdir.value}/${cacheDir}`) : `${rootdir.value}/.pytest_cache` }, 'pytest (its cache)');
    if (!envOf(inv, 'PYTHONDONTWRITEBYTECODE')?.value) {
      for (const d of new Set(paths.map(dirOf))) w('extract', { ...paths[0]!, value: `${d}/__pycache__` }, 'pytest (bytecode)');
    }
    pythonEnvWrites(inv, interp, []);
  },
};

function commonDir(dirs: string[]): string {
  const split = dirs.map((d) => d.split('/'));
  const out: string[] = [];
  for (let i = 0; i < split[0]!.length; i++) {
    const part = split[0]![i]!;
    if (split.every((s) => s[i] === part)) out.push(part);
    else break;
  }
  return out.join('/') || (dirs[0]!.startsWith('/') ? '/' : '.');
}

/**
 * Package managers whose explicit target directory receives the install (`pip install --target
 * DIR`, `npm --prefix DIR install`): a real write there, not just "somewhere in the project".
 */
function installer(base: CommandSpec, targets: string[], grammar: OptionGrammar, subs: string[]): CommandSpec {
  return {
    category: 'project',
    run(inv, interp) {
      const p = parseArgs(inv.args, grammar);
      const sub = p.operands[0]?.value;
      const dir = optionValues(p, ...targets).pop();
      if (dir && sub && subs.includes(sub) && !hasOption(p, '--dry-run', '--help', '-h')) {
        interp.write('extract', dir, inv.st, inv.range, `${inv.name} ${sub} ${p.options.find((o) => o.value === dir)?.name ?? ''}`.trim(), { subtree: true });
        return;
      }
      base.run(inv, interp);
    },
  };
}

const DOCKER_GLOBAL = ['-H', '--host', '--context', '-c', '--config', '-l', '--log-level', '--tlscacert', '--tlscert', '--tlskey'];
const DOCKER_VALUE_SHORT = 'aecfhlmopuvwH';
const DOCKER_VALUE_LONG = ['volume', 'mount', 'output', 'file', 'tag', 'name', 'env', 'env-file', 'workdir', 'user', 'publish', 'network', 'entrypoint', 'label', 'build-arg', 'target', 'platform', 'cidfile', 'iidfile', 'metadata-file', 'memory', 'cpus', 'hostname', 'add-host', 'cap-add', 'cap-drop', 'device', 'restart', 'format', 'filter', 'signal', 'time', 'project-name', 'project-directory', 'profile', 'cache-from', 'cache-to', 'secret', 'ssh', 'progress', 'shm-size', 'ulimit', 'gpus', 'runtime', 'pull', 'security-opt', 'log-driver', 'log-opt', 'tmpfs', 'volumes-from', 'ipc', 'pid', 'userns', 'detach-keys', 'since', 'until', 'tail'];

/**
 * docker / podman: the local paths a subcommand writes (`cp CTR:SRC DST`, `build -o`, `save -o`,
 * `--cidfile`), bind mounts a container may write (`-v HOST:CTR`, `--mount type=bind,...`), and
 * closed world for the rest: other operands and option values may be paths it writes.
 */
const docker: CommandSpec = {
  category: 'project',
  run(inv, interp) {
    let args = inv.args;
    // Global options come before the subcommand.
    while (args[0] && args[0].value.startsWith('-')) args = args.slice(DOCKER_GLOBAL.includes(args[0].value) ? 2 : 1);
    let sub = args[0]?.value;
    args = args.slice(1);
    if ((sub === 'container' || sub === 'image' || sub === 'buildx' || sub === 'builder') && args[0] && !args[0].value.startsWith('-')) {
      sub = args[0].value;
      args = args.slice(1);
    }
    if (sub === undefined) return;
    if (sub === 'compose') {
      // Bind mounts and build outputs live in the compose file: the project directory may be written.
      interp.write('maybe-write', { value: '.', confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, `${inv.name} compose`, { subtree: true, confidenceCap: 'possible' });
    }
    const p = parseArgs(args, { short: DOCKER_VALUE_SHORT, long: DOCKER_VALUE_LONG });
    const w = (op: WriteOp, f: Field, what: string, opts: { subtree?: boolean; confidenceCap?: Confidence } = {}) => interp.write(op, f, inv.st, inv.range, `${inv.name} ${what}`, opts);
    const described = new Set<string>();
    if (sub === 'cp') {
      const [src, dst] = p.operands;
      // `CONTAINER:PATH` names a path in a container; anything else is local.
      const inContainer = (f: Field) => /^[A-Za-z0-9][A-Za-z0-9_.-]*:/.test(f.value) && !f.value.startsWith('/') && !f.value.startsWith('.');
      if (src && dst && !inContainer(dst)) w('write', dst, 'cp', { subtree: true });
      return;
    }
    for (const o of p.options) {
      if (!o.value) continue;
      const v = o.value;
      if (['-o', '--output'].includes(o.name) && (sub === 'build' || sub === 'save' || sub === 'export' || sub === 'bake')) {
        described.add(o.name);
        const dest = /(?:^|,)dest=([^,]+)/.exec(v.value)?.[1] ?? (v.value.includes('=') ? null : v.value);
        if (dest && dest !== '-') w(sub === 'build' && !/type=(?:tar|oci|docker)/.test(v.value) ? 'extract' : 'write', { ...v, value: dest }, `${sub} ${o.name}`, { subtree: sub === 'build' });
      } else if (['--cidfile', '--iidfile', '--metadata-file'].includes(o.name)) {
        described.add(o.name);
        w('write', v, o.name);
      } else if (['-v', '--volume'].includes(o.name)) {
        described.add(o.name);
        const parts = v.value.split(':');
        const host = parts[0]!;
        if (parts.length >= 2 && /^(?:\/|\.|~)/.test(host) && !/(?:^|,)ro(?:,|$)/.test(parts[2] ?? '')) w('maybe-write', { ...v, value: host }, `${sub} -v`, { subtree: true, confidenceCap: 'possible' });
      } else if (o.name === '--mount') {
        described.add(o.name);
        const src = /(?:^|,)(?:source|src)=([^,]+)/.exec(v.value)?.[1];
        if (src && /(?:^|,)type=bind(?:,|$)/.test(v.value) && !/(?:^|,)(?:readonly|ro)(?:=true|=1)?(?:,|$)/.test(v.value)) w('maybe-write', { ...v, value: src }, `${sub} --mount`, { subtree: true, confidenceCap: 'possible' });
      } else if (['-f', '--file', '--env-file', '-e', '--env', '-t', '--tag', '--name', '-w', '--workdir', '-p', '--publish', '-u', '--user', '-l', '--label', '--build-arg', '--format', '--filter', '--platform', '--target', '--network', '--entrypoint', '-m', '--memory', '-h', '--hostname'].includes(o.name)) described.add(o.name);
    }
    // `docker run IMAGE CMD ARGS`: the command runs in the container, not here.
    if (sub === 'run' || sub === 'create' || sub === 'exec') return;
    const rest: Field[] = [];
    for (const o of p.options) if (o.value && !described.has(o.name)) rest.push(o.value);
    // `build CONTEXT` is read; other subcommands' operands are not described.
    if (sub !== 'build' && sub !== 'pull' && sub !== 'push' && sub !== 'tag' && sub !== 'rmi' && sub !== 'rm' && sub !== 'stop' && sub !== 'start' && sub !== 'logs' && sub !== 'inspect' && sub !== 'ps' && sub !== 'images' && sub !== 'kill') rest.push(...p.operands);
    unlisted(inv, interp, rest);
  },
};

/**
 * ssh: the remote command runs on the other host; locally ssh writes only its log (-E) and
 * control socket (-S, -o ControlPath=) (ssh(1)). `-o ProxyCommand=`/`LocalCommand=` run here.
 */
const ssh: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'BbcDEeFIiJLlmOopQRSWw', stopAtOperand: true });
    // (A control socket of an unknown path is bound only where no file exists: skipped.)
    for (const f of optionValues(p, '-E', '-S')) if (f.value !== 'none' && !(f.value.includes(HOLE) && !optionValues(p, '-E').includes(f))) interp.write('write', f, inv.st, inv.range, 'ssh');
    for (const o of optionValues(p, '-o')) {
      const m = /^(ProxyCommand|LocalCommand|KnownHostsCommand)[= ]\s*(.+)$/i.exec(o.value);
      if (m && m[2] !== 'none') {
        if (m[2]!.includes(HOLE)) interp.dynamicProblem(`ssh -o ${m[1]} runs a command that cannot be known statically`, displayPath(o.value), inv.range);
        else interp.runNested(m[2]!, interp.child(inv.st), inv.range, `ssh -o ${m[1]}`);
      }
      const path = /^(?:ControlPath|UserKnownHostsFile)[= ]\s*(.+)$/i.exec(o.value);
      if (path && path[1] !== 'none' && !path[1]!.includes(HOLE)) interp.write('write', { ...o, value: path[1]! }, inv.st, inv.range, 'ssh -o');
    }
  },
};

const GH_TEXT = ['-b', '--body', '-t', '--title', '-n', '--notes', '-m', '--message', '-q', '--jq', '-T', '--template', '-S', '--search', '-l', '--label', '-a', '--assignee', '-r', '--reviewer', '-B', '--base', '-H', '--head', '-R', '--repo', '--json', '-L', '--limit', '-s', '--state', '-F', '--body-file', '-f', '--field', '--raw-field', '-X', '--method', '-p', '--pattern', '--milestone', '--author', '--branch', '-w', '--workflow', '--hostname', '-e', '--env', '--org', '-c', '--commit', '--title-file'];

/** gh: clone and download write paths; texts (bodies, titles, queries) are not paths; the rest is closed world. */
const gh: CommandSpec = {
  category: 'project',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'bBtnmqTSlarHRLsFfXpwecDO', long: GH_TEXT.filter((o) => o.startsWith('--')).map((o) => o.slice(2)).concat(['dir', 'output', 'clobber']) });
    const [group, sub] = p.operands.map((f) => f.value);
    if (group === 'repo' && sub === 'clone') {
      const [url, dir] = p.operands.slice(2);
      const target = dir ?? (url ? { ...url, value: url.value.replace(/\/+$/, '').replace(/\.git$/, '').split(/[/:]/).pop() ?? HOLE } : undefined);
      if (target) interp.write('extract', target, inv.st, inv.range, 'gh repo clone', { subtree: true });
      return;
    }
    if (sub === 'download') {
      for (const d of optionValues(p, '-D', '--dir')) interp.write('extract', d, inv.st, inv.range, `gh ${group} download -D`, { subtree: true });
      for (const f of optionValues(p, '-O', '--output')) if (f.value !== '-') interp.write('write', f, inv.st, inv.range, `gh ${group} download -O`);
      if (optionValues(p, '-D', '--dir', '-O', '--output').length === 0) interp.write('extract', { value: '.', confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, `gh ${group} download`, { subtree: true });
      return;
    }
    const rest: Field[] = [];
    for (const o of p.options) if (o.value && !GH_TEXT.includes(o.name) && !['-D', '--dir', '-O', '--output'].includes(o.name)) rest.push(o.value);
    rest.push(...p.operands.slice(2));
    unlisted(inv, interp, rest.filter((f) => !/\s/.test(f.value)));
  },
};

/** `npm pack --pack-destination DIR`: the tarball is written in DIR (npm-pack(1)). */
function npmPack(base: CommandSpec): CommandSpec {
  return {
    category: 'project',
    run(inv, interp) {
      base.run(inv, interp);
      const p = parseArgs(inv.args, { short: 'wC', long: ['prefix', 'workspace', 'pack-destination'] });
      if (p.operands[0]?.value !== 'pack' || hasOption(p, '--dry-run')) return;
      for (const d of optionValues(p, '--pack-destination')) interp.write('write', { ...d, value: `${d.value.replace(/\/+$/, '')}/*.tgz`, glob: true }, inv.st, inv.range, 'npm pack --pack-destination');
    },
  };
}

/**
 * `go build -o FILE|DIR/`; `go env -w|-u` writes the user's go env file: $GOENV, else
 * $XDG_CONFIG_HOME/go/env, else $HOME/.config/go/env (go help environment, os.UserConfigDir).
 */
function goWrites(base: CommandSpec): CommandSpec {
  return {
    category: 'project',
    run(inv, interp) {
      base.run(inv, interp);
      const p = parseArgs(inv.args, { short: 'oC' });
      const sub = p.operands[0]?.value;
      for (const o of optionValues(p, '-o')) if (o.value !== '/dev/null') interp.write('write', o, inv.st, inv.range, `go ${sub ?? ''} -o`.replace('  ', ' '));
      if (sub !== 'env' || !hasOption(p, '-w', '-u')) return;
      const goenv = envOf(inv, 'GOENV');
      const xdg = envOf(inv, 'XDG_CONFIG_HOME');
      const home = envOf(inv, 'HOME');
      const src = goenv?.value ? goenv : xdg?.value ? xdg : home;
      const path = goenv?.value ? goenv.value : xdg?.value ? `${xdg.value}/go/env` : `${home?.value ?? HOLE}/.config/go/env`;
      if (path === 'off') return;
      interp.write('write', { value: path, confidence: src?.confidence ?? 'possible', evidence: [...(src?.evidence ?? []), { range: inv.range, note: `\`go env -w\` writes the go env file ${displayPath(path)}, read by every go command of the user` }], glob: false }, inv.st, inv.range, 'go env -w');
    },
  };
}

/** `npm config set|delete|edit` / `npm set`: the user config (~/.npmrc, --userconfig, NPM_CONFIG_USERCONFIG). */
function npmConfig(base: CommandSpec): CommandSpec {
  return {
    category: 'project',
    run(inv, interp) {
      const p = parseArgs(inv.args, { short: 'C', long: ['prefix', 'userconfig', 'location', 'globalconfig'] });
      const ops = p.operands.map((f) => f.value);
      const writesConfig = (ops[0] === 'config' || ops[0] === 'c') ? ['set', 'delete', 'rm', 'edit', 'fix'].includes(ops[1] ?? '') : ops[0] === 'set';
      if (!writesConfig) {
        base.run(inv, interp);
        return;
      }
      const location = optionValues(p, '--location')[0]?.value ?? (hasOption(p, '-g', '--global') ? 'global' : 'user');
      const field = (value: string, note: string, conf: Confidence = 'certain'): Field => ({ value, confidence: conf, evidence: [{ range: inv.range, note }], glob: false });
      if (location === 'project') {
        const prefix = optionValues(p, '--prefix', '-C').pop();
        interp.write('write', prefix ? { ...prefix, value: `${prefix.value}/.npmrc` } : field('.npmrc', 'npm config --location=project writes .npmrc in the project'), inv.st, inv.range, 'npm config set');
        return;
      }
      if (location === 'global') {
        const g = optionValues(p, '--globalconfig').pop() ?? envField(inv, 'NPM_CONFIG_GLOBALCONFIG') ?? field(`${HOLE}/etc/npmrc`, 'npm config --global writes the global npmrc', 'possible');
        interp.write('write', g, inv.st, inv.range, 'npm config set --global');
        return;
      }
      const home = envOf(inv, 'HOME');
      const user = optionValues(p, '--userconfig').pop() ?? envField(inv, 'NPM_CONFIG_USERCONFIG') ?? envField(inv, 'npm_config_userconfig') ?? field(`${home?.value ?? HOLE}/.npmrc`, `npm config writes the user config ${displayPath(home?.value ?? HOLE)}/.npmrc`, home?.confidence ?? 'possible');
      interp.write('write', user, inv.st, inv.range, 'npm config set');
    },
  };
}

function envField(inv: Invocation, name: string): Field | null {
  const v = envOf(inv, name);
  return v ? { value: v.value, confidence: v.confidence, evidence: [...v.evidence, { range: inv.range, note: `${name}=${displayPath(v.value)}` }], glob: false } : null;
}

/**
 * Tools that write dotfiles and caches under $HOME / $XDG_*: when the command itself moves that
 * variable (`HOME=/elsewhere npm ...`), the writes move with it. The usual locations (the
 * variable from the hook's environment) are not the worktree's concern.
 */
const ENV_DOTFILES: Record<string, Array<[string, string]>> = {
  npm: [['npm_config_cache', ''], ['HOME', '.npm']],
  npx: [['npm_config_cache', ''], ['HOME', '.npm']],
  yarn: [['XDG_CACHE_HOME', 'yarn'], ['HOME', '.cache/yarn']],
  pnpm: [['XDG_CACHE_HOME', 'pnpm'], ['HOME', '.cache/pnpm']],
  pip: [['PIP_CACHE_DIR', ''], ['XDG_CACHE_HOME', 'pip'], ['HOME', '.cache/pip']],
  pip3: [['PIP_CACHE_DIR', ''], ['XDG_CACHE_HOME', 'pip'], ['HOME', '.cache/pip']],
  go: [['GOCACHE', ''], ['XDG_CACHE_HOME', 'go-build'], ['HOME', '.cache/go-build']],
  cargo: [['CARGO_HOME', ''], ['HOME', '.cargo']],
  gpg: [['GNUPGHOME', ''], ['HOME', '.gnupg']],
  uv: [['UV_CACHE_DIR', ''], ['XDG_CACHE_HOME', 'uv'], ['HOME', '.cache/uv']],
  poetry: [['POETRY_CACHE_DIR', ''], ['XDG_CACHE_HOME', 'pypoetry'], ['HOME', '.cache/pypoetry']],
  'pre-commit': [['PRE_COMMIT_HOME', ''], ['XDG_CACHE_HOME', 'pre-commit'], ['HOME', '.cache/pre-commit']],
};

function envDotfiles(inv: Invocation, interp: CommandContext): void {
  const chain = ENV_DOTFILES[inv.name];
  if (!chain) return;
  if (inv.args.some((a) => a.value === '--version' || a.value === '--help' || a.value === '-h')) return;
  for (const [name, sub] of chain) {
    const v = envOf(inv, name);
    if (!v || v.value === '') continue;
    // The usual place, from the environment the agent started with: nothing moved.
    if (v.fromEnvironment) return;
    const value = sub ? `${v.value.replace(/\/+$/, '')}/${sub}` : v.value;
    interp.write('maybe-write', { value, confidence: v.confidence, evidence: [...v.evidence, { range: inv.range, note: `${name}=${displayPath(v.value)} moves where \`${inv.name}\` writes ${sub || 'its files'}` }], glob: false }, inv.st, inv.range, `${inv.name} (${name})`, { subtree: true, confidenceCap: 'possible' });
    return;
  }
}

/** `rg --pre CMD`: CMD runs on every file searched. */
const rg: CommandSpec = {
  category: 'read',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'efgmABCEjMrtT', long: ['pre', 'pre-glob', 'regexp', 'file', 'glob', 'iglob', 'max-count', 'after-context', 'before-context', 'context', 'encoding', 'threads', 'max-columns', 'replace', 'type', 'type-not', 'type-add', 'sort', 'sortr', 'max-depth', 'max-filesize', 'path-separator', 'colors', 'ignore-file', 'engine'] });
    const pre = optionValues(p, '--pre')[0];
    if (pre && pre.value !== '') interp.runWrapped([pre, { value: HOLE, confidence: 'possible', evidence: [{ range: inv.range, note: 'a file rg searches' }], glob: false }], inv.env, inv.st, inv.range, 'rg --pre', { kind: 'unknown' });
  },
};

/** Makefile text from stdin (`make -f - <<EOF`): its recipes are shell code. */
function makeFromStdin(base: CommandSpec): CommandSpec {
  return {
    category: 'project',
    run(inv, interp) {
      base.run(inv, interp);
      const p = parseArgs(inv.args, { short: 'CfIjlo', long: ['directory', 'file', 'makefile', 'include-dir', 'jobs', 'load-average'] });
      const files = optionValues(p, '-f', '--file', '--makefile').map((f) => f.value);
      if (!files.some((f) => f === '-' || f === '/dev/stdin')) return;
      const s = inv.stdin;
      if (s.kind !== 'text' || !s.known) {
        interp.dynamicProblem('make reads its makefile from stdin, which cannot be known statically', 'make -f -', inv.range);
        return;
      }
      const recipes = s.text.split('\n').filter((l) => l.startsWith('\t')).map((l) => l.slice(1).replace(/^[@+-]+/, '').replace(/\$\$/g, '$'));
      const dirs = optionValues(p, '-C', '--directory');
      const child = interp.child(inv.st);
      if (dirs.length > 0) interp.setCwd(child, interp.resolveCd(inv.st, dirs[dirs.length - 1]!, inv.range, false), inv.range, 'make -C');
      if (recipes.length > 0) interp.runNested(recipes.join('\n'), child, inv.range, 'make -f - (recipe)');
    },
  };
}

/** `OPTION CMD` that runs a shell command: tar --to-command, rsync -e, zip -TT, sort --compress-program ... */
function commandOptions(base: CommandSpec, options: string[]): CommandSpec {
  return {
    category: base.category,
    ...(base.silent ? { silent: true } : {}),
    run(inv, interp) {
      base.run(inv, interp);
      const a = inv.args;
      for (let i = 0; i < a.length; i++) {
        const v = a[i]!.value;
        if (v === '--') break;
        let c: string | null = null;
        let name = v;
        if (options.includes(v)) c = a[++i]?.value ?? null;
        else {
          const eq = v.indexOf('=');
          if (eq > 0 && v.startsWith('--') && options.includes(v.slice(0, eq))) {
            name = v.slice(0, eq);
            c = v.slice(eq + 1);
          } else if (v.startsWith('--checkpoint-action=exec=')) {
            name = '--checkpoint-action';
            c = v.slice('--checkpoint-action=exec='.length);
          }
        }
        if (c === null || c === '') continue;
        if (c.includes(HOLE)) interp.dynamicProblem(`${inv.name} ${name} runs a command that cannot be known statically`, displayPath(c), inv.range);
        else interp.runNested(c, interp.child(inv.st), inv.range, `${inv.name} ${name}`);
      }
    },
  };
}

/**
 * Less common commands, built on the first lookup that needs them: most hook calls never do, and
 * building these entries is a measurable part of a hook process's start-up.
 */
const MORE = (): Record<string, CommandSpec> => ({
  history,
  enable,
  chronic: wrapper({ grammar: {} }),
  uniq: writes({ grammar: { short: 'fsw', long: ['skip-fields', 'skip-chars', 'check-chars', 'all-repeated', 'group'] }, operands: 'after-first', op: 'write' }),
  xxd: writes({ grammar: { short: 'cglosn', long: [] }, operands: 'after-first', op: 'write' }),
  tree: writes({ grammar: { short: 'LPIo', long: ['filelimit', 'timefmt', 'sort', 'charset', 'prune'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write' } }),
  less: writes({ grammar: { short: 'oObhjkpPtTxyz', long: ['log-file', 'LOG-FILE', 'tag', 'tag-file'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '-O': 'write', '--log-file': 'write', '--LOG-FILE': 'write' } }),
  sponge: writes({ grammar: {}, operands: 'each', op: 'write', flagOps: { '-a': 'append' } }),
  mkfifo: writes({ grammar: { short: 'mZ', long: ['mode', 'context'] }, operands: 'each', op: 'create' }),
  mknod: { category: 'writes', silent: true, run(inv, interp) { const p = parseArgs(inv.args, { short: 'mZ', long: ['mode', 'context'] }); if (p.operands[0]) interp.write('create', p.operands[0], inv.st, inv.range, 'mknod'); } },
  iconv: writes({ grammar: { short: 'fto', long: ['from-code', 'to-code', 'output'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }),
  pandoc: writes({ grammar: { short: 'ofltMVdHBAcs', long: ['output', 'from', 'to', 'read', 'write', 'template', 'metadata', 'variable', 'data-dir', 'css', 'include-in-header', 'defaults', 'resource-path', 'extract-media', 'pdf-engine', 'lua-filter', 'filter', 'reference-doc'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write', '--extract-media': 'extract' } }),
  gpg: writes({ grammar: { short: 'orRuf', long: ['output', 'recipient', 'local-user', 'homedir', 'default-key', 'keyserver', 'passphrase', 'passphrase-file', 'trust-model', 'cipher-algo', 'digest-algo', 'compress-algo', 's2k-cipher-algo', 'pinentry-mode'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write', '--homedir': 'extract' } }),
  // gzip's command line, in parallel (pigz --help): each operand is replaced by its .gz (its original with -d).
  pigz: writes({ grammar: { short: 'AbCIJpS', long: ['alias', 'blocksize', 'comment', 'iterations', 'maxsplits', 'processes', 'suffix'] }, operands: 'each', op: 'modify', noWriteFlags: ['-c', '--stdout', '-l', '--list', '-t', '--test'], subtreeFlags: ['-r', '--recursive'] }),
  unpigz: writes({ grammar: { short: 'AbCIJpS', long: ['alias', 'blocksize', 'comment', 'iterations', 'maxsplits', 'processes', 'suffix'] }, operands: 'each', op: 'modify', noWriteFlags: ['-c', '--stdout', '-l', '--list', '-t', '--test'], subtreeFlags: ['-r', '--recursive'] }),
  brotli: writes({ grammar: { short: 'oqwS', long: ['output', 'quality', 'lgwin', 'suffix'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }),
  ar: { category: 'writes', silent: true, run(inv, interp) { const ops = inv.args.filter((a) => !a.value.startsWith('-')); const mode = ops[0]?.value ?? ''; if (/^[a-zA-Z]*[rqmdsx]/.test(mode) && !/^[a-zA-Z]*[tp]/.test(mode) && ops[1]) interp.write(mode.includes('x') ? 'extract' : 'modify', mode.includes('x') ? { value: '.', confidence: 'certain', evidence: [], glob: false } : ops[1], inv.st, inv.range, 'ar', { subtree: mode.includes('x') }); } },
  '7z': { category: 'writes', run(inv, interp) { const ops = inv.args.filter((a) => !a.value.startsWith('-')); const out = inv.args.find((a) => a.value.startsWith('-o')); const cmd = ops[0]?.value; if ((cmd === 'a' || cmd === 'u' || cmd === 'd' || cmd === 'rn') && ops[1]) interp.write('write', ops[1], inv.st, inv.range, `7z ${cmd}`); if ((cmd === 'x' || cmd === 'e') && !inv.args.some((a) => a.value === '-so')) interp.write('extract', out ? { ...out, value: out.value.slice(2) } : { value: '.', confidence: 'certain', evidence: [], glob: false }, inv.st, inv.range, `7z ${cmd}`, { subtree: true }); } },
  convert: writes({ grammar: {}, operands: 'dest-last', op: 'write' }),
  mogrify: writes({ grammar: { short: '', long: [] }, operands: 'each', op: 'modify' }),
  ffmpeg: { category: 'writes', run(inv, interp) { const last = inv.args[inv.args.length - 1]; const prev = inv.args[inv.args.length - 2]?.value; if (last && !last.value.startsWith('-') && prev !== '-i' && inv.args.some((a) => a.value === '-i') && last.value !== '-' && !last.value.startsWith('pipe:')) interp.write('write', last, inv.st, inv.range, 'ffmpeg'); } },
  dos2unix, unix2dos: dos2unix, mac2unix: dos2unix, unix2mac: dos2unix,
  black: formatter(['--check', '--diff'], null),
  isort: formatter(['--check', '--check-only', '-c', '--diff'], null),
  autopep8: formatter(['--diff'], ['-i', '--in-place']),
  yapf: formatter(['--diff', '-d'], ['-i', '--in-place']),
  autoflake: formatter(['--check', '--check-diff'], ['-i', '--in-place']),
  ruff: formatter(['--check', '--diff'], ['--fix'], ['format', 'check']),
  gofmt: formatter([], ['-w']),
  rustfmt: formatter(['--check'], null),
  'clang-format': formatter(['--dry-run', '-n'], ['-i']),
  shfmt: formatter([], ['-w', '--write']),
  cc, gcc: cc, 'g++': cc, 'c++': cc, clang: cc, 'clang++': cc, gfortran: cc, nvcc: cc, tcc: cc, 'x86_64-linux-gnu-gcc': cc,
  ld: singleDashOutputs({ '-o': 'write', '--output': 'write' }),
  openssl: singleDashOutputs({ '-out': 'write', '-keyout': 'write', '-sigout': 'write', '-certout': 'write', '-CAserial': 'write', '-signature': 'write' }),
  // output options from the tldr pages (`-o FILE`, `--output FILE`, `--outfile=FILE` ...)
  shuf: writes({ grammar: { short: 'inoe', long: ['input-range', 'head-count', 'output', 'random-source'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }),
  xmllint: writes({ grammar: { long: ['output', 'path', 'dtdvalid', 'relaxng', 'schema', 'xpath', 'encode', 'pretty', 'maxmem'] }, operands: 'none', op: 'write', optionWrites: { '--output': 'write' } }),
  pygmentize: writes({ grammar: { short: 'lfFoOPaS' }, operands: 'none', op: 'write', optionWrites: { '-o': 'write' } }),
  cwebp: singleDashOutputs({ '-o': 'write' }),
  dwebp: singleDashOutputs({ '-o': 'write' }),
  img2pdf: writes({ grammar: { short: 'oSC', long: ['output', 'pagesize', 'imgsize', 'border', 'title', 'author'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }),
  qrencode: writes({ grammar: { short: 'osltvdrm', long: ['output', 'size', 'level', 'type'] }, operands: 'none', op: 'write', optionWrites: { '-o': 'write', '--output': 'write' } }),
  dot: singleDashOutputs({ '-o': 'write' }),
  mkisofs: singleDashOutputs({ '-o': 'write' }),
  genisoimage: singleDashOutputs({ '-o': 'write' }),
  xorriso: singleDashOutputs({ '-outdev': 'write' }),
  esbuild: singleDashOutputs({ '--outfile': 'write', '--outdir': 'extract', '--metafile': 'write' }),
  gs: { category: 'writes', run(inv, interp) { for (let i = 0; i < inv.args.length; i++) { const v = inv.args[i]!.value; const f = v.startsWith('-sOutputFile=') ? { ...inv.args[i]!, value: v.slice(13) } : v === '-o' ? inv.args[++i] : undefined; if (f && f.value !== '-' && !f.value.startsWith('%')) interp.write('write', f, inv.st, inv.range, 'gs -sOutputFile'); } } },
  yq: { category: 'writes', run(inv, interp) { if (!inv.args.some((a) => a.value === '-i' || a.value === '--inplace' || a.value === '--in-place')) return; const ops = inv.args.filter((a) => !a.value.startsWith('-')); for (const f of ops.slice(1)) interp.write('modify', f, inv.st, inv.range, 'yq -i'); } },
  rename: { category: 'writes', run(inv, interp) { const ops = inv.args.filter((a) => !a.value.startsWith('-')); if (inv.args.some((a) => a.value === '-n' || a.value === '--no-act' || a.value === '--nono')) return; for (const f of ops.slice(1)) interp.write('move', f, inv.st, inv.range, 'rename'); } },
  magick: writes({ grammar: {}, operands: 'dest-last', op: 'write' }),
  wkhtmltopdf: writes({ grammar: {}, operands: 'dest-last', op: 'write' }),
  sox: writes({ grammar: {}, operands: 'dest-last', op: 'write' }),
  qpdf: { category: 'writes', run(inv, interp) { const ops = inv.args.filter((a) => !a.value.startsWith('-')); if (inv.args.some((a) => a.value === '--replace-input')) { if (ops[0]) interp.write('modify', ops[0], inv.st, inv.range, 'qpdf --replace-input'); } else if (ops.length >= 2) interp.write('write', ops[ops.length - 1]!, inv.st, inv.range, 'qpdf'); } },
  pdftk: { category: 'writes', run(inv, interp) { const i = inv.args.findIndex((a) => a.value === 'output'); const f = i >= 0 ? inv.args[i + 1] : undefined; if (f && f.value !== '-') interp.write('write', f, inv.st, inv.range, 'pdftk output'); } },
  sqlite3: ex(sqlite3, [['sqlite3 ../../app.db vacuum', 'deny'], ['sqlite3 app.db vacuum', 'allow'], ['sqlite3 -readonly ../../app.db .tables', 'allow']]),
  ssh: ex(ssh, [["ssh host 'rm -rf /home/dev/repo'", 'allow'], ['ssh -E ../../ssh.log host true', 'deny'], ["ssh -o ProxyCommand='touch /home/dev/repo/p' host", 'deny']]),
  gh: ex(gh, [['gh pr create --title t --body "fixes /home/dev/repo (see notes)"', 'allow'], ['gh release download v1 -D ../../dl', 'deny'], ['gh repo clone o/r', 'allow'], ['gh frob --out=../../x', 'ask']]),
  docker: ex(docker, [['docker cp c:/out ../../dist', 'deny'], ['docker cp c:/out dist', 'allow'], ['docker run --rm -v /home/dev/repo:/w alpine true', 'ask'], ['docker run --rm -v /home/dev/repo:/w:ro alpine true', 'allow'], ['docker build -o ../../out .', 'deny'], ['docker build -t x .', 'allow']]),
  podman: docker,
  'ssh-keygen': sshKeygen,
  cpio,
  rg,
  'py.test': pytest,
});

// Precedence: TABLE (the entries above and the changes below), then the builtins, then the
// read-only list, then MORE (built lazily; a test keeps it disjoint from the read-only list).
const silentBuiltin: CommandSpec = { category: 'builtin', silent: true, run() {} };
const printingBuiltin: CommandSpec = { category: 'builtin', run() {} };
const SMALL = new Map<string, CommandSpec>();
for (const n of READ_ONLY) SMALL.set(n, readOnly);
for (const n of SILENT_BUILTINS) SMALL.set(n, silentBuiltin);
for (const n of PRINTING_BUILTINS) SMALL.set(n, printingBuiltin);
let more: Map<string, CommandSpec> | null = null;
function moreTable(): Map<string, CommandSpec> {
  more ??= new Map(Object.entries(MORE()));
  return more;
}

// Python interpreters: -c / -m / stdin / script.
const pythonEntry = () => python;
for (const n of ['python', 'python3', 'python2', 'pypy', 'pypy3', ...['8', '9', '10', '11', '12', '13', '14'].map((v) => `python3.${v}`)]) TABLE.set(n, pythonEntry);
TABLE.set('pytest', () => pytest);
// Explicit install targets, npm's config, make's stdin makefile, commands run through options.
amend('pip', (pip) => installer(pip, ['--target', '-t', '--prefix', '--root', '-d', '--dest', '-w', '--wheel-dir'], { short: 'trecdw', long: ['target', 'prefix', 'root', 'requirement', 'constraint', 'editable', 'dest', 'wheel-dir', 'index-url', 'extra-index-url', 'find-links', 'python-version', 'platform'] }, ['install', 'download', 'wheel']));
TABLE.set('pip3', () => ownSpec('pip')!);
amend('npm', (npm) => npmConfig(installer(npm, ['--prefix', '-C'], { short: 'wC', long: ['prefix', 'workspace'] }, ['install', 'i', 'add', 'ci', 'uninstall', 'remove', 'rm', 'un', 'update', 'up', 'upgrade', 'link', 'ln', 'init', 'create', 'pack', 'rebuild', 'dedupe', 'prune'])));
amend('npm', npmPack);
amend('npm', (npm) => ex(npm, [['npm pack --pack-destination ../..', 'deny'], ['npm pack --pack-destination dist', 'allow'], ['npm test', 'allow'], ['cd ../.. && npm test', 'ask'], ['npm frob --out=../../x', 'ask']]));
amend('go', (go) => ex(go, [['go env -w GOFLAGS=-x', 'deny'], ['go env GOFLAGS', 'allow'], ['go build -o ../../bin/x .', 'deny'], ['go build -o bin/x .', 'allow']]));
amend('go', goWrites);
amend('make', makeFromStdin);
amend('gmake', makeFromStdin);
amend('tar', (tar) => commandOptions(tar, ['--to-command', '-I', '--use-compress-program', '--info-script', '-F', '--new-volume-script', '--rsh-command']));
amend('rsync', (rsync) => commandOptions(rsync, ['-e', '--rsh']));
amend('zip', (zip) => commandOptions(zip, ['-TT', '--unzip-command']));
amend('sort', (sort) => commandOptions(sort, ['--compress-program']));

/** The environment-moved writes run before the command's own knowledge (or the closed-world default). */
function withEnvWrites(name: string, spec: CommandSpec | undefined): CommandSpec | undefined {
  if (!ENV_DOTFILES[name]) return spec;
  return {
    category: spec?.category ?? 'project',
    ...(spec?.silent ? { silent: true } : {}),
    ...(spec?.examples ? { examples: spec.examples } : {}),
    run(inv, interp) {
      envDotfiles(inv, interp);
      if (spec) spec.run(inv, interp);
      else unknownCommand(inv, interp);
    },
  };
}


const withEnv = new Map<string, CommandSpec | undefined>();
/** ENV_DOTFILES' names as a Set: an own-property test of a name not yet interned cost ~4% of the interpreter. */
const ENV_DOTFILE_NAMES = new Set(Object.keys(ENV_DOTFILES));

/**
 * Command knowledge for a basename, or undefined: the interpreter then applies the closed-world
 * default (src/engine/commands/unknown.ts), never "no effect".
 */
export function lookupCommand(name: string): CommandSpec | undefined {
  const own = ownSpec(name) ?? SMALL.get(name) ?? moreTable().get(name);
  if (!ENV_DOTFILE_NAMES.has(name)) return own;
  if (!withEnv.has(name)) withEnv.set(name, withEnvWrites(name, own));
  return withEnv.get(name);
}

/** Every command name bashguard knows, for docs and property tests. */
export function knownCommands(): string[] {
  return [...new Set([...TABLE.keys(), ...SMALL.keys(), ...moreTable().keys()])].sort();
}

/** For the table's own tests: names of the lazily built part that the eager part shadows. */
export function shadowedLazyCommands(): string[] {
  return [...moreTable().keys()].filter((n) => TABLE.has(n) || SMALL.has(n));
}

