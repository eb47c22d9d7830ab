import { type Example, type CommandSpec, command } from '../spec.js';
import { writes } from '../kinds.js';
import { codeStrings } from '../unknown.js';
import { HOLE } from '../../effects/types.js';
import { displayPath } from '../../shell/paths.js';

const edits: CommandSpec = writes({ grammar: { short: 'cSiTuwW', long: [] }, operands: 'each', op: 'modify' });

/** Editors that take ex or ed commands: `:w PATH` and `:!cmd` write and run anything. */
const EX_EDITORS = new Set(['vi', 'vim', 'nvim', 'ex', 'ed']);

const vi: CommandSpec = {
  ...edits,
  run(inv, interp) {
    edits.run(inv, interp);
    if (!EX_EDITORS.has(inv.name)) return;
    // Commands given on the command line (`-c CMD`, `--cmd CMD`, `+CMD`): the paths they mention
    // may be written, like an unknown program's (a script file, `-S`/`-s FILE`, is not read here).
    const args = inv.args;
    for (let i = 0; i < args.length; i++) {
      const a = args[i]!.value;
      const code = a === '-c' || a === '--cmd' ? args[++i]?.value : a.length > 1 && a.startsWith('+') ? a.slice(1) : null;
      // (`-s` is vim's script input; ed's and ex's silent mode)
      const script = a === '-S' || (a === '-s' && inv.name !== 'ed' && inv.name !== 'ex');
      if (script || code?.includes(HOLE)) interp.dynamicProblem(`${inv.name} runs editor commands not known statically`, displayPath(code ?? args[i + 1]?.value ?? a), inv.range);
      else if (code) codeStrings(inv, interp, code, `the ${inv.name} command \`${code}\``);
    }
    // ed and ex read their commands from stdin.
    if (inv.name === 'ed' || inv.name === 'ex') {
      const s = inv.stdin;
      if (s.kind === 'text' && s.known) codeStrings(inv, interp, s.text, `the ${inv.name} commands on its stdin`);
      else interp.dynamicProblem(`${inv.name} runs commands read from an input not known statically`, inv.shown, inv.range);
    }
  },
};

export default command({
  names: ['vi', 'vim', 'nvim', 'nano', 'emacs', 'ed', 'ex', 'code', 'subl', 'gedit', 'kate', 'micro', 'hx', 'helix', 'joe', 'mcedit'],
  build: () => vi,
});

export const examples: readonly Example[] = [
  ['vi ../../x', 'deny'],
  ['vim x', 'allow'],
  ["vim -c 'w ../../x' -c q f", 'ask'],
  ["vim -c 'w out.txt' -c q f", 'allow'],
  ["ed -s f <<< 'w ../../x'", 'ask'],
  ["ed -s f <<< 'w out.txt'", 'allow'],
];
