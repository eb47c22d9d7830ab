import { evaluateTest } from '../../shell/conditions.js';
import { type Example, command } from '../spec.js';
import { printingBuiltin } from '../kinds.js';

export default command({
  names: ['test', '['],
  build: () => printingBuiltin,
  shell(inv, sh) {
    let args = inv.args;
    if (inv.name === '[') {
      if (args[args.length - 1]?.value !== ']') return true;
      args = args.slice(0, -1);
    }
    // `-v NAME[SUB]` evaluates SUB (arithmetic for an indexed array): its substitutions run.
    for (let i = 0; i + 1 < args.length; i++) if (args[i]!.value === '-v') sh.arithmetic?.(args[i + 1]!.value, inv.st, inv.range, 'value');
    sh.status = evaluateTest(args, sh.testContext(inv.st, false));
    return true;
  },
});

export const examples: readonly Example[] = [
  ['test -f ../../README.md', 'allow'],
  ['[ -d ../b2 ] && echo yes', 'allow'],
  ['x=\'a[$(touch ../../x)]\'; test -v "$x"', 'deny'],
  ['x=\'a[$(touch x)]\'; test -v "$x"', 'allow'],
];
