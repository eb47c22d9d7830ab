/**
 * Kinds of command knowledge that several specs share: declarative writers (`writes`), wrappers
 * that run another command (`wrapper`, `commandString`), interpreters of other languages
 * (`code`), project tools (`project`, `installer`), formatters, and the writes an environment
 * variable moves (`withEnvWrites`). A spec in specs/ picks one and gives it its data.
 */
import { HOLE, type WriteOp } from '../effects/types.js';
import type { Confidence } from '../effects/confidence.js';
import type { Field } from '../shell/field.js';
import type { CommandContext, Invocation } from './context.js';
import { cloneState, type CwdValue } from '../shell/state.js';
import { basenameOf, displayPath, joinPath, normalizeLogical } from '../shell/paths.js';
import { hasOption, optionValues, parseArgs, type OptionGrammar, type ParsedArgs } from './args.js';
import { inlineCodeWrites, languageOf } from './inline-code.js';
import { unknownCommand, unlisted } from './unknown.js';
import { envOf } from './env.js';
import type { CommandSpec } from './spec.js';

export interface WritesSpec {
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
  /** For `each`: an operand that is a symlink is replaced or skipped, never written through (gzip, bzip2). */
  replaces?: boolean;
  /**
   * For `dest-last`: a symlink at DEST is replaced, not written through (rename(2) over it: `mv`;
   * unlink then create: `install`, `ln -f`, `cp --remove-destination`); true, or the flags that make
   * it so. A symlink to a directory still receives the source under its own name unless one of
   * `noDeref` treats DEST as a plain name (`-T`, `ln -n`).
   */
  destReplaces?: true | string[];
  /** For `dest-last`: flags that make DEST a plain name, never a directory to land in (`-T`). */
  noDeref?: string[];
}

export function writes(spec: WritesSpec): CommandSpec {
  // Not silent: a writer may print (`gzip -c`, `tee`, `cp -v`, `sed` without -i), so what
  // `$(writer ...)` gives is not known, never empty (`[ -z "$(gzip -c f)" ]` decides nothing).
  return {
    category: 'writes',
    run(inv, interp) {
      applyWrites(spec, parseArgs(inv.args, spec.grammar), inv, interp);
    },
  };
}

export function applyWrites(spec: WritesSpec, p: ParsedArgs, inv: Invocation, interp: CommandContext, cwd?: CwdValue): void {
  if (spec.noWriteFlags && hasOption(p, ...spec.noWriteFlags)) return;
  // GNU tools print their help or version and exit before touching an operand.
  if (hasOption(p, '--help', '--version')) return;
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
  unknownValues.push(...p.maybeValues);
  if (unknownValues.length > 0) unlisted(inv, interp, unknownValues, 'the value of an option its entry does not describe');
  const flagChanged = op !== spec.op;
  const operands = flagChanged && spec.flagOps && op === 'mkdir' ? 'each' : spec.operands;
  switch (operands) {
    case 'each':
      for (const f of p.operands) {
        if (spec.replaces) interp.write(op, f, inv.st, inv.range, inv.name, { subtree, cwdOverride: cwd, replaces: true });
        else w(op, f);
      }
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
      const linkSource = (target: Field | undefined): { linkTarget?: string; hardLinkSource?: string } =>
        op !== 'link' || !target ? {} : symbolic ? { linkTarget: target.value } : { hardLinkSource: target.value };
      // `mv SRC DST`, `cp -P`/`-d`/`-a`/`-R`, `rsync -l`/`-a`: SRC itself lands at DST, a symlink as a
      // symlink (cp -L/-H and rsync without -l follow it); the policy carries a link at SRC over to DST.
      const keepsLinks =
        op === 'move' ||
        (inv.name === 'cp' && hasOption(p, '-P', '-d', '-a', '-r', '-R', '--no-dereference', '--recursive', '--archive') && !hasOption(p, '-L', '-H', '--dereference')) ||
        (inv.name === 'rsync' && hasOption(p, '-l', '-a', '--links', '--archive') && !hasOption(p, '-L', '--copy-links'));
      const carried = (s: Field | undefined): { linkFrom?: string } => (keepsLinks && s ? { linkFrom: s.value } : {});
      const link = (f: Field, target: Field | undefined) => {
        const source = linkSource(target);
        return source.linkTarget === undefined && source.hardLinkSource === undefined ? w(op, f) : interp.write(op, f, inv.st, inv.range, inv.name, { cwdOverride: cwd, ...source });
      };
      if (targets.length > 0) {
        for (const t of targets) {
          if (symbolic && p.operands.length === 1) link({ ...t, value: `${t.value.replace(/\/+$/, '')}/${basenameOf(p.operands[0]!.value)}` }, p.operands[0]);
          else {
            w(op, t, true, (subtree || op === 'move') && p.operands.some((f) => f.value.includes(HOLE) || f.glob || /(?:^|\/)\.?\/?$/.test(f.value)));
            for (const s of p.operands.slice(0, 16)) {
              const name = basenameOf(s.value.replace(/\/+$/, ''));
              if (!s.value.includes(HOLE) && !s.glob && name !== '' && name !== '.' && name !== '..') interp.write(op, { ...t, value: `${t.value.replace(/\/+$/, '')}/${name}` }, inv.st, inv.range, inv.name, { subtree, cwdOverride: cwd, ...carried(s) });
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
        // `-T`: DEST is the name itself, never a directory the sources land in.
        const plain = spec.noDeref !== undefined && hasOption(p, ...spec.noDeref);
        let named = op !== 'link' && !dest.value.includes(HOLE);
        if (named && !plain) {
          for (const s of sources.slice(0, 16)) {
            const name = basenameOf(s.value.replace(/\/+$/, ''));
            if (s.value.includes(HOLE) || (s.glob && (name.includes(HOLE) || name === '')) || name === '' || name === '.' || name === '..' || (inv.name === 'rsync' && s.value.endsWith('/'))) {
              named = false;
              continue;
            }
            interp.write(op, { ...dest, value: `${dest.value.replace(/\/+$/, '')}/${name}`, glob: s.glob, ...(s.dotglob ? { dotglob: true } : {}), evidence: [...dest.evidence, { range: inv.range, note: `${displayPath(dest.value)} may be a directory: ${displayPath(s.value)} lands in it as ${name}` }] }, inv.st, inv.range, inv.name, { cwdOverride: cwd, subtree, tree: subtree, ...carried(s), ...(isDir ? {} : { confidenceCap: 'possible' as const }) });
          }
        }
        const tree = (subtree || op === 'move') && !(named && isDir) && !dest.value.includes(HOLE) && !dest.glob;
        // A symlink at DEST is replaced only where every name that may land inside it (when it leads
        // to a directory) was written above; ln names none there, so it writes its one source's here.
        const replaces = (spec.destReplaces === true || (spec.destReplaces !== undefined && hasOption(p, ...spec.destReplaces))) && sources.length === 1 && (plain || named || op === 'link');
        if (replaces && op === 'link' && !plain) {
          const name = basenameOf(sources[0]!.value.replace(/\/+$/, ''));
          if (sources[0]!.value.includes(HOLE) || name === '' || name === '.' || name === '..') w(op, dest);
          else interp.write(op, { ...dest, value: `${dest.value.replace(/\/+$/, '')}/${name}`, evidence: [...dest.evidence, { range: inv.range, note: `${displayPath(dest.value)} may lead to a directory: the link lands in it as ${name}` }] }, inv.st, inv.range, inv.name, { cwdOverride: cwd, confidenceCap: 'possible', ...linkSource(sources[0]) });
        }
        if (replaces && !(named && isDir && !plain)) interp.write(op, dest, inv.st, inv.range, inv.name, { cwdOverride: cwd, replaces: true, subtree, tree, ...linkSource(sources[0]), ...(op === 'link' ? {} : carried(sources[0])) });
        else if (op === 'link' && sources.length === 1) link(p.operands[p.operands.length - 1]!, sources[0]);
        // `mv DIR DEST`, `cp -r DIR DEST`: DEST may receive any name below it. (When DEST is a
        // directory and every source's name is known, the per-source writes above are the writes.)
        else if (!(named && isDir && sources.length <= 16)) {
          if (sources.length === 1 && keepsLinks) interp.write(op, dest, inv.st, inv.range, inv.name, { subtree, cwdOverride: cwd, tree, ...carried(sources[0]) });
          else w(op, dest, subtree || sources.length > 1, tree);
        }
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

export interface WrapperSpec {
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
  /** Options whose value is a file the wrapper itself writes (`strace -o`, `time -o`, `valgrind --log-file=`). */
  writes?: string[];
  /**
   * Runs its command in this shell (`builtin`, `command`, the `time` keyword): a `cd` or an
   * assignment there stays. Any other wrapper is a program of its own: what it runs is a child
   * process, whose cwd and variables end with it (`env cd /tmp` moves nothing).
   */
  inShell?: boolean;
}

export function wrapper(spec: WrapperSpec): CommandSpec {
  return {
    category: 'wrapper',
    run(inv, interp) {
      const p = parseArgs(inv.args, { ...spec.grammar, stopAtOperand: true });
      if (spec.noRunFlags && hasOption(p, ...spec.noRunFlags)) return;
      for (const f of spec.writes ? optionValues(p, ...spec.writes) : []) interp.write('write', f, inv.st, inv.range, `${inv.name} (its output file)`);
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
      interp.runWrapped(rest, env, spec.inShell ? inv.st : cloneState(inv.st), inv.range, inv.name, inv.stdin, cwd);
    },
  };
}

export interface CodeSpec {
  grammar: OptionGrammar;
  /** Options whose value is inline code (`-c`, `-e`). */
  codeOptions: string[];
  /** The first operand is the program when no code option is given (awk, sed). */
  programOperand?: boolean;
  /**
   * In-place editing (`perl -i`, `ruby -i`, `gawk -i inplace`): the file operands are rewritten by
   * renaming a new file over each (a symlink there is replaced, not followed). `values`: the option
   * edits in place only with one of these values (gawk's `-i` loads any library); `confidenceCap`:
   * where the program behind the name may not edit at all (`awk` is mawk on some systems).
   */
  inPlace?: { options: readonly string[]; values?: readonly string[]; confidenceCap?: Confidence };
  /** Operands after inline code are its argv (python, node), not input files (perl -n, awk). */
  argvOperands?: boolean;
}

export function code(spec: CodeSpec): CommandSpec {
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
      const ip = spec.inPlace;
      const inPlace = ip && p.options.some((o) => ip.options.includes(o.name) && (!ip.values || ip.values.includes(o.value?.value ?? '')));
      if (inPlace) for (const f of files) interp.write('modify', f, inv.st, inv.range, `${inv.name} -i`, { replaces: true, ...(ip.confidenceCap ? { confidenceCap: ip.confidenceCap } : {}) });
    },
  };
}

/** `python3 -c CODE ARG...` where CODE writes: each argument (resolved against the cwd) may be what it writes. */
export function codeArguments(args: Field[], inv: Invocation, interp: CommandContext): void {
  for (const f of args) {
    if (f.value.startsWith('-') || f.value === '' || f.value.startsWith(HOLE)) continue;
    interp.write('maybe-write', { ...f, evidence: [...f.evidence, { range: inv.range, note: `an argument of inline ${inv.name} code that writes files` }] }, inv.st, inv.range, inv.name, { confidenceCap: 'possible' });
  }
}

/**
 * Build and package tools write somewhere below their project directory (the cwd, or a
 * `-C`/`--prefix` option): harmless inside the worktree, an escape after `cd <main>`.
 */
export function project(dirOptions: string[], grammar: OptionGrammar, readOnly: string[] = [], described: string[] = []): CommandSpec {
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
export function projectUnlisted(inv: Invocation, interp: CommandContext, p: ParsedArgs, described: string[]): void {
  const rest: Field[] = [];
  for (const o of p.options) if (o.value && !described.includes(o.name)) rest.push(o.value);
  rest.push(...p.operands.slice(1));
  unlisted(inv, interp, rest);
}

export const chmodLike = (modeOperand: boolean): CommandSpec => ({
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

/** `watch 'cmd'`, `su -c 'cmd'`, `script -c 'cmd'`, `flock FILE -c 'cmd'`: a command string run by sh. */
export function commandString(grammar: OptionGrammar, codeOption: string | null, joinOperands: boolean): CommandSpec {
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

/** `read X`, `mapfile X`, `printf -v X`: the variable's value becomes unknown. */
export const readVar: CommandSpec = {
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

/** A command that only reads its arguments and prints: no writes, whatever paths it is given. */
export const readOnly: CommandSpec = { category: 'read', run() {} };

/** `-out FILE`, `-keyout FILE` (single-dash long options): openssl and friends. */
export function singleDashOutputs(options: Record<string, WriteOp>): CommandSpec {
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

/** What a formatter's options are, beyond the check and fix flags. */
export interface FormatterOptions {
  /** Options that take the next word as their value (`--config FILE`, `-l 100`): that word is read, not rewritten. */
  values?: readonly string[];
  /** Options that take no value. */
  flags?: readonly string[];
  /** The options send the result to standard output (`rustfmt --emit stdout`): nothing is rewritten. */
  toStdout?(args: readonly string[]): boolean;
  /** Options whose value is a file the tool writes, with or without the fix flag (`eslint -o REPORT`). */
  writes?: readonly string[];
}

/**
 * Formatters that rewrite their operands unless asked to only check (`black`, `isort`, `ruff format`).
 * The word after an option the entry does not list may be that option's value rather than a file,
 * so its rewrite is only possible.
 */
export function formatter(checkFlags: string[], fixFlags: string[] | null, sub?: string[], opts: FormatterOptions = {}): CommandSpec {
  const known = new Set([...checkFlags, ...(fixFlags ?? []), ...(opts.flags ?? [])]);
  const values = new Set([...(opts.values ?? []), ...(opts.writes ?? [])]);
  return {
    category: 'writes',
    run(inv, interp) {
      let args = inv.args;
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!.value;
        const eq = a.indexOf('=');
        const name = eq > 0 ? a.slice(0, eq) : a;
        if (!opts.writes?.includes(name)) continue;
        const v = eq > 0 ? { ...args[i]!, value: a.slice(eq + 1) } : args[++i];
        if (v) interp.write('write', v, inv.st, inv.range, `${inv.name} ${name}`);
      }
      if (sub) {
        const s = args.findIndex((a) => !a.value.startsWith('-'));
        if (s < 0 || !sub.includes(args[s]!.value)) return;
        if (args[s]!.value === 'check' && fixFlags && !args.some((a) => fixFlags.includes(a.value))) return;
        args = args.slice(s + 1);
      } else if (fixFlags && !args.some((a) => fixFlags.includes(a.value))) return;
      if (args.some((a) => checkFlags.includes(a.value))) return;
      if (opts.toStdout?.(args.map((a) => a.value))) return;
      let onlyOperands = false;
      for (let i = 0; i < args.length; i++) {
        const a = args[i]!;
        if (!onlyOperands && a.value === '--') {
          onlyOperands = true;
          continue;
        }
        if (!onlyOperands && a.value.startsWith('-')) {
          if (a.value === '-' || a.value.includes('=')) continue;
          if (values.has(a.value)) i++;
          else if (!known.has(a.value) && args[i + 1] && !args[i + 1]!.value.startsWith('-')) {
            // Unlisted option: the next word is its value or a file.
            interp.write('modify', args[++i]!, inv.st, inv.range, inv.name, { subtree: true, confidenceCap: 'possible' });
          }
          continue;
        }
        interp.write('modify', a, inv.st, inv.range, inv.name, { subtree: true });
      }
    },
  };
}

export function dirnameOfArg(v: string): string {
  const i = v.replace(/\/+$/, '').lastIndexOf('/');
  return i < 0 ? '.' : i === 0 ? '' : v.slice(0, i);
}

/** PYTHONPYCACHEPREFIX moves every bytecode cache python writes (stdlib included) under that directory. */
export function pythonEnvWrites(inv: Invocation, interp: CommandContext, options: Field[]): void {
  const prefix = envOf(inv, 'PYTHONPYCACHEPREFIX');
  if (!prefix || prefix.value === '' || options.some((o) => /^-[a-zA-Z]*B/.test(o.value)) || envOf(inv, 'PYTHONDONTWRITEBYTECODE')?.value) return;
  interp.write('extract', { value: prefix.value, confidence: prefix.confidence, evidence: [...prefix.evidence, { range: inv.range, note: `PYTHONPYCACHEPREFIX=${displayPath(prefix.value)}: python writes its bytecode caches there` }], glob: false }, inv.st, inv.range, `${inv.name} (PYTHONPYCACHEPREFIX)`, { subtree: true });
}

/**
 * Package managers whose explicit target directory receives the install (`pip install --target
 * DIR`, `npm --prefix DIR install`): a real write there, not just "somewhere in the project".
 */
export function installer(base: CommandSpec, targets: string[], grammar: OptionGrammar, subs: string[]): CommandSpec {
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

/**
 * Tools that write dotfiles and caches under $HOME / $XDG_*: when the command itself moves that
 * variable (`HOME=/elsewhere npm ...`), the writes move with it. The usual locations (the
 * variable from the hook's environment) are not the worktree's concern.
 */
export const ENV_DOTFILES: Record<string, Array<[string, string]>> = {
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

export function envDotfiles(inv: Invocation, interp: CommandContext): void {
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

/** Makefile text from stdin (`make -f - <<EOF`): its recipes are shell code. */
const MAKE_DYNAMIC = /\$[({](?:shell|eval|file|guile)\b|^[ \t]*[-s]?include[ \t]|^[ \t]*(?:override[ \t]+)?(?:export[ \t]+)?(?:SHELL|\.SHELLFLAGS|MAKEFILES)[ \t]*[:?+!]*=/m;

export function makeFromStdin(base: CommandSpec): CommandSpec {
  return {
    category: 'project',
    run(inv, interp) {
      base.run(inv, interp);
      const p = parseArgs(inv.args, { short: 'CfIjlo', long: ['directory', 'file', 'makefile', 'include-dir', 'jobs', 'load-average'] });
      const files = optionValues(p, '-f', '--file', '--makefile').map((f) => f.value);
      const dirs = optionValues(p, '-C', '--directory');
      const child = interp.child(inv.st);
      if (dirs.length > 0) interp.setCwd(child, interp.resolveCd(inv.st, dirs[dirs.length - 1]!, inv.range, false), inv.range, 'make -C');
      const runRecipes = (text: string, label: string) => {
        // What make itself runs while reading (`$(shell ...)`, included makefiles, another SHELL) is not followed.
        if (MAKE_DYNAMIC.test(text)) {
          interp.dynamicProblem(`${label}: the makefile runs code while it is read, includes other makefiles or sets SHELL`, 'make', inv.range);
          return;
        }
        const recipes = text.split('\n').filter((l) => l.startsWith('\t')).map((l) => l.slice(1).replace(/^[@+-]+/, '').replace(/\$\$/g, '$'));
        if (recipes.length > 0) interp.runNested(recipes.join('\n'), child, inv.range, label);
      };
      if (files.some((f) => f === '-' || f === '/dev/stdin')) {
        const s = inv.stdin;
        if (s.kind !== 'text' || !s.known) interp.dynamicProblem('make reads its makefile from stdin, which cannot be known statically', 'make -f -', inv.range);
        else runRecipes(s.text, 'make -f - (recipe)');
      }
      // A makefile this command wrote (`printf ... > Makefile; make`): its recipes run, as a script
      // the command writes and runs does (the names GNU make reads by default, or -f FILE).
      const dir = interp.pwd(child);
      const named = files.length > 0 ? files.filter((f) => f !== '-' && f !== '/dev/stdin') : ['GNUmakefile', 'makefile', 'Makefile'];
      for (const f of named) {
        const abs = f.includes(HOLE) ? null : f.startsWith('/') ? normalizeLogical(f) : dir === null || dir.includes(HOLE) ? null : normalizeLogical(joinPath(dir, f));
        const written = abs === null ? undefined : interp.writtenFiles.get(abs);
        if (abs === null && [...interp.writtenFiles.keys()].some((k) => /\/(?:GNUmakefile|makefile|Makefile|[^/]*\.mk)$/.test(k))) {
          interp.dynamicProblem(`make reads ${displayPath(f)}, which may be a makefile this command writes`, `make`, inv.range);
        } else if (written && !written.known) {
          interp.dynamicProblem(`make reads ${displayPath(f)}, which this command writes with content not known statically`, `make`, inv.range);
        } else if (written) runRecipes(written.text, `make (recipe of ${displayPath(f)})`);
      }
    },
  };
}

/** `OPTION CMD` that runs a shell command: tar --to-command, rsync -e, zip -TT, sort --compress-program ... */
export function commandOptions(base: CommandSpec, options: string[]): CommandSpec {
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
 * A bash builtin that is plain data here and prints nothing. Builtins with behaviour have their own
 * specs (cd, read, eval, exec ...); trap, alias, hash and shopt have only a shell-level part
 * (SpecModule.shell) and no table entry.
 */
export const silentBuiltin: CommandSpec = { category: 'builtin', silent: true, run() {} };

/** A bash builtin that is plain data here and prints something not known statically. */
export const printingBuiltin: CommandSpec = { category: 'builtin', run() {} };

/** The environment-moved writes run before the command's own knowledge (or the closed-world default). */
export function withEnvWrites(name: string, spec: CommandSpec | undefined): CommandSpec | undefined {
  if (!ENV_DOTFILES[name]) return spec;
  return {
    category: spec?.category ?? 'project',
    ...(spec?.silent ? { silent: true } : {}),
    run(inv, interp) {
      envDotfiles(inv, interp);
      if (spec) spec.run(inv, interp);
      else unknownCommand(inv, interp);
    },
  };
}
