import { HOLE } from '../../effects/types.js';
import type { CommandContext, Invocation, Stdin } from '../context.js';
import { descriptorOfPath, displayPath } from '../../shell/paths.js';
import { hasOption, parseArgs, type OptionGrammar } from '../args.js';
import { unknownCommand } from '../unknown.js';
import { envOf } from '../env.js';
import { optionChange, setShellOption } from '../../shell/shell-options.js';
import type { State } from '../../shell/state.js';
import { type Example, type CommandSpec, command } from '../spec.js';

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
    const fd = file && !hasOption(p, '-s') && !file.value.includes(HOLE) && file.value.startsWith('/') ? descriptorOfPath(file.value) : null;
    if (fd === 0) {
      stdinScript(inv, interp, inv.name);
      return;
    }
    if (fd !== null) {
      // `bash /dev/fd/3`: code this command feeds in (a `<(...)` it wrote is analyzed before this).
      interp.dynamicProblem(`${inv.name} runs code read from a descriptor, which cannot be known statically`, displayPath(file!.value), inv.range);
      return;
    }
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

export default command({
  names: ['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'busybox-sh', 'rbash', 'yash', 'posh'],
  build: () => shell,
});

export const examples: readonly Example[] = [
  ['bash -c \'touch ../../x\'', 'deny'],
  ['sh -c \'touch x\'', 'allow'],
  ['bash <<< "touch ../../x"', 'deny'],
];
