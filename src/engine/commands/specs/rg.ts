import { HOLE } from '../../effects/types.js';
import { optionValues, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

/** `rg --pre CMD`: CMD runs on every file searched. */
const rg: CommandSpec = {
  category: 'read',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'efgmABCEjMrtT', long: ['pre', 'pre-glob', 'regexp', 'file', 'glob', 'iglob', 'max-count', 'after-context', 'before-context', 'context', 'encoding', 'threads', 'max-columns', 'replace', 'type', 'type-not', 'type-add', 'sort', 'sortr', 'max-depth', 'max-filesize', 'path-separator', 'colors', 'ignore-file', 'engine'] });
    const pre = optionValues(p, '--pre')[0];
    if (pre && pre.value !== '') interp.runWrapped([pre, { value: HOLE, confidence: 'possible', evidence: [{ range: inv.range, note: 'a file rg searches' }], glob: false }], inv.env, inv.st, inv.range, 'rg --pre', { kind: 'unknown' });
  },
};

export default command({
  names: ['rg'],
  build: () => rg,
});

export const examples: readonly Example[] = [
  ['cd ../.. && rg --pre ./pre.sh pat', 'ask'],
  ['cd ../.. && rg pat', 'allow'],
];
