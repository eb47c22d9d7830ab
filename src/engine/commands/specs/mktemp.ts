import { HOLE } from '../../effects/types.js';
import type { Invocation } from '../context.js';
import { displayPath, joinPath } from '../../shell/paths.js';
import { hasOption, parseArgs } from '../args.js';
import { envOf } from '../env.js';
import { type Example, type CommandSpec, command } from '../spec.js';

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

function tmpdir(inv: Invocation): string {
  const v = inv.env.get('TMPDIR')?.value ?? inv.st.vars.get('TMPDIR')?.value;
  return v?.replace(/\/+$/, '') || '/tmp';
}

export default command({
  names: ['mktemp'],
  build: () => mktemp,
  output(inv, interp) {
    const p = parseArgs(inv.args, { short: 'p', long: ['suffix'] });
    const dirOpt = p.options.find((o) => o.name === '-p' || o.name === '--tmpdir');
    const template = p.operands[0]?.value;
    const dir = dirOpt?.value?.value || (p.options.some((o) => o.name === '-t') || !template || dirOpt ? tmpdir(inv) : null);
    if (template) {
      const name = template.replace(/X{3,}$/, HOLE);
      if (template.startsWith('/')) return name + '\n';
      if (dir) return joinPath(dir, name) + '\n';
      const cwd = interp.pwd(inv.st);
      return cwd ? joinPath(cwd, name) + '\n' : null;
    }
    return `${dir ?? tmpdir(inv)}/tmp.${HOLE}\n`;
  },
});

export const examples: readonly Example[] = [
  ['TMPDIR=/home/dev/repo mktemp', 'deny'],
  ['mktemp -d', 'allow'],
];
