import { HOLE } from '../../effects/types.js';
import { displayPath } from '../../shell/paths.js';
import { hasOption, optionValues, parseArgs } from '../args.js';
import { envOf } from '../env.js';
import { type Example, type CommandSpec, command } from '../spec.js';
import { project, withEnvWrites } from '../kinds.js';

/**
 * `go build -o FILE|DIR/`; `go env -w|-u` writes the user's go env file: $GOENV, else
 * $XDG_CONFIG_HOME/go/env, else $HOME/.config/go/env (go help environment, os.UserConfigDir).
 */
function goWrites(base: CommandSpec): CommandSpec {
  return {
    category: 'project',
    run(inv, interp) {
      base.run(inv, interp);
      const p = parseArgs(inv.args, { short: 'oC' });
      const sub = p.operands[0]?.value;
      for (const o of optionValues(p, '-o')) if (o.value !== '/dev/null') interp.write('write', o, inv.st, inv.range, `go ${sub ?? ''} -o`.replace('  ', ' '));
      if (sub !== 'env' || !hasOption(p, '-w', '-u')) return;
      const goenv = envOf(inv, 'GOENV');
      const xdg = envOf(inv, 'XDG_CONFIG_HOME');
      const home = envOf(inv, 'HOME');
      const src = goenv?.value ? goenv : xdg?.value ? xdg : home;
      const path = goenv?.value ? goenv.value : xdg?.value ? `${xdg.value}/go/env` : `${home?.value ?? HOLE}/.config/go/env`;
      if (path === 'off') return;
      interp.write('write', { value: path, confidence: src?.confidence ?? 'possible', evidence: [...(src?.evidence ?? []), { range: inv.range, note: `\`go env -w\` writes the go env file ${displayPath(path)}, read by every go command of the user` }], glob: false }, inv.st, inv.range, 'go env -w');
    },
  };
}

export default command({
  names: ['go'],
  build: () => withEnvWrites('go', goWrites(project(['-C'], { short: 'oC' }, ['version', 'env', 'list', 'doc', 'help', 'vet'], ['-o']))),
});

export const examples: readonly Example[] = [
  ['go env -w GOFLAGS=-x', 'deny'],
  ['go env GOFLAGS', 'allow'],
  ['go build -o ../../bin/x .', 'deny'],
  ['go build -o bin/x .', 'allow'],
];
