import { HOLE } from '../../effects/types.js';
import type { Field } from '../../shell/field.js';
import { optionValues, parseArgs } from '../args.js';
import { unlisted } from '../unknown.js';
import { type Example, type CommandSpec, command } from '../spec.js';

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

export default command({
  names: ['gh'],
  build: () => gh,
});

export const examples: readonly Example[] = [
  ['gh pr create --title t --body "fixes /home/dev/repo (see notes)"', 'allow'],
  ['gh release download v1 -D ../../dl', 'deny'],
  ['gh repo clone o/r', 'allow'],
  ['gh frob --out=../../x', 'ask'],
];
