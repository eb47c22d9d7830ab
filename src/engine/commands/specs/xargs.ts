import { HOLE } from '../../effects/types.js';
import type { Field } from '../../shell/field.js';
import { hasOption, optionValues, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

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

export default command({
  names: ['xargs'],
  build: () => xargs,
});

export const examples: readonly Example[] = [
  ['echo ../../x | xargs rm', 'deny'],
  ['echo x | xargs rm', 'allow'],
];
