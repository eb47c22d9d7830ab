import type { Field } from '../../shell/field.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const sed: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    // `-i[SUFFIX]` and `--in-place[=SUFFIX]` take an optional, attached value only.
    const args = inv.args;
    let inPlace = false;
    let followLinks = false;
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
        else if (a === '--follow-symlinks') followLinks = true;
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
    // sed -i writes a new file in the operand's directory and renames it over the operand (GNU and
    // BSD alike), so a symlink operand is replaced by a regular file and its target is not written;
    // sed(1): "--follow-symlinks  follow symlinks when processing in place".
    if (inPlace) for (const f of operands) interp.write('modify', f, inv.st, inv.range, followLinks ? 'sed -i --follow-symlinks' : 'sed -i', followLinks ? {} : { replaces: true });
  },
};

export default command({
  names: ['sed'],
  build: () => sed,
});

export const examples: readonly Example[] = [
  ['sed -i \'s/a/b/\' ../../x', 'deny'],
  ['sed -i \'s/a/b/\' x', 'allow'],
  ['sed \'s/a/b/\' ../../x', 'allow'],
];
