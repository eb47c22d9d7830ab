import type { Field } from '../../shell/field.js';
import { displayPath } from '../../shell/paths.js';
import { type Example, type CommandSpec, command } from '../spec.js';

// An address: a line, `$`, a regex `/re/` (no capture group: the patterns below number theirs);
// a second one after `,`; `!` negates. (`\cREc` addresses are not read: their commands are missed.)
const ADDR = String.raw`(?:\d+(?:~\d+)?|\$|\/(?:[^/\\\n]|\\.)*\/[IM]*)`;
const PREFIX = String.raw`(?:^|[;\n{}])\s*(?:${ADDR}(?:\s*,\s*(?:${ADDR}|[~+]\d+))?\s*!?\s*)?`;
const COMMAND_W = new RegExp(String.raw`(?:${PREFIX}[wW]|\/[gpIiMm0-9e]*w)\s+([^;\n}]+)`, 'g');
const COMMAND_E = new RegExp(String.raw`${PREFIX}e(?:[ \t]+([^\n]*))?(?=$|[;\n}])`, 'g');
/** The flags of each `s` command (any delimiter). */
const S_FLAGS = /(?:^|[;\n{}!\s])s([^\\\n\s])(?:(?!\1)[^\\\n]|\\.)*\1(?:(?!\1)[^\\\n]|\\.)*\1([A-Za-z0-9]*)/g;

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
    for (const s of scripts) {
      // (text not known statically is taken to hold no command, as a value in arithmetic is:
      // docs/limits.md; `sed "s/$a/$b/"` is everyday sed)
      // `w FILE` / `W FILE` (after an address or not) and the `w FILE` flag of `s///` write FILE.
      for (const m of s.matchAll(COMMAND_W)) {
        interp.write('write', { value: m[1]!.trim(), confidence: 'likely', evidence: [], glob: false }, inv.st, inv.range, 'sed w');
      }
      // `e COMMAND` runs COMMAND in a shell; a bare `e` and the `e` flag of `s///` run text read from the input.
      for (const m of s.matchAll(COMMAND_E)) {
        const code = m[1]?.trim() ?? '';
        // (it runs once per input line the address selects: whether there is one is not known)
        if (code) interp.possibly(() => interp.runNested(code, interp.child(inv.st), inv.range, 'sed e'));
        else interp.dynamicProblem('sed runs text from its input as a command (e)', displayPath(s), inv.range);
      }
      for (const m of s.matchAll(S_FLAGS)) {
        if (m[2]!.includes('e')) interp.dynamicProblem('sed runs the result of a substitution as a command (the e flag of s)', displayPath(s), inv.range);
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
  ["sed -n '1w ../../x' f", 'deny'],
  ["sed -n '/re/,$w out.txt' f", 'allow'],
  ["sed -n '1e touch ../../x' f", 'ask'],
  ["sed -n '1e touch x' f", 'allow'],
  ["sed 's/.*/touch &/e' f", 'ask'],
];
