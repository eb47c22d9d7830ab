import { HOLE } from '../../effects/types.js';
import type { Confidence } from '../../effects/confidence.js';
import type { Field } from '../../shell/field.js';
import type { Invocation } from '../context.js';
import { displayPath } from '../../shell/paths.js';
import { hasOption, optionValues, parseArgs } from '../args.js';
import { envOf } from '../env.js';
import { type Example, type CommandSpec, command } from '../spec.js';
import { project, installer, withEnvWrites } from '../kinds.js';

/** `npm pack --pack-destination DIR`: the tarball is written in DIR (npm-pack(1)). */
function npmPack(base: CommandSpec): CommandSpec {
  return {
    category: 'project',
    run(inv, interp) {
      base.run(inv, interp);
      const p = parseArgs(inv.args, { short: 'wC', long: ['prefix', 'workspace', 'pack-destination'] });
      if (p.operands[0]?.value !== 'pack' || hasOption(p, '--dry-run')) return;
      for (const d of optionValues(p, '--pack-destination')) interp.write('write', { ...d, value: `${d.value.replace(/\/+$/, '')}/*.tgz`, glob: true }, inv.st, inv.range, 'npm pack --pack-destination');
    },
  };
}

/** `npm config set|delete|edit` / `npm set`: the user config (~/.npmrc, --userconfig, NPM_CONFIG_USERCONFIG). */
function npmConfig(base: CommandSpec): CommandSpec {
  return {
    category: 'project',
    run(inv, interp) {
      const p = parseArgs(inv.args, { short: 'C', long: ['prefix', 'userconfig', 'location', 'globalconfig'] });
      const ops = p.operands.map((f) => f.value);
      const writesConfig = (ops[0] === 'config' || ops[0] === 'c') ? ['set', 'delete', 'rm', 'edit', 'fix'].includes(ops[1] ?? '') : ops[0] === 'set';
      if (!writesConfig) {
        base.run(inv, interp);
        return;
      }
      const location = optionValues(p, '--location')[0]?.value ?? (hasOption(p, '-g', '--global') ? 'global' : 'user');
      const field = (value: string, note: string, conf: Confidence = 'certain'): Field => ({ value, confidence: conf, evidence: [{ range: inv.range, note }], glob: false });
      if (location === 'project') {
        const prefix = optionValues(p, '--prefix', '-C').pop();
        interp.write('write', prefix ? { ...prefix, value: `${prefix.value}/.npmrc` } : field('.npmrc', 'npm config --location=project writes .npmrc in the project'), inv.st, inv.range, 'npm config set');
        return;
      }
      if (location === 'global') {
        const g = optionValues(p, '--globalconfig').pop() ?? envField(inv, 'NPM_CONFIG_GLOBALCONFIG') ?? field(`${HOLE}/etc/npmrc`, 'npm config --global writes the global npmrc', 'possible');
        interp.write('write', g, inv.st, inv.range, 'npm config set --global');
        return;
      }
      const home = envOf(inv, 'HOME');
      const user = optionValues(p, '--userconfig').pop() ?? envField(inv, 'NPM_CONFIG_USERCONFIG') ?? envField(inv, 'npm_config_userconfig') ?? field(`${home?.value ?? HOLE}/.npmrc`, `npm config writes the user config ${displayPath(home?.value ?? HOLE)}/.npmrc`, home?.confidence ?? 'possible');
      interp.write('write', user, inv.st, inv.range, 'npm config set');
    },
  };
}

function envField(inv: Invocation, name: string): Field | null {
  const v = envOf(inv, name);
  return v ? { value: v.value, confidence: v.confidence, evidence: [...v.evidence, { range: inv.range, note: `${name}=${displayPath(v.value)}` }], glob: false } : null;
}

export default command({
  names: ['npm'],
  build: () => withEnvWrites('npm', npmPack(npmConfig(installer(project(['--prefix', '-C'], { short: 'wC', long: ['prefix', 'workspace'] }, ['view', 'info', 'show', 'ls', 'list', 'outdated', 'search', 'help', 'config', 'whoami', 'ping', 'root', 'bin', 'prefix', 'explain', 'why', 'fund', 'docs', 'repo', 'bugs'], ['-w', '--workspace']), ['--prefix', '-C'], { short: 'wC', long: ['prefix', 'workspace'] }, ['install', 'i', 'add', 'ci', 'uninstall', 'remove', 'rm', 'un', 'update', 'up', 'upgrade', 'link', 'ln', 'init', 'create', 'pack', 'rebuild', 'dedupe', 'prune'])))),
});

export const examples: readonly Example[] = [
  ['npm pack --pack-destination ../..', 'deny'],
  ['npm pack --pack-destination dist', 'allow'],
  ['npm test', 'allow'],
  ['cd ../.. && npm test', 'ask'],
  ['npm frob --out=../../x', 'ask'],
];
