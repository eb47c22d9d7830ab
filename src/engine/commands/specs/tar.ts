import { HOLE } from '../../effects/types.js';
import type { Field } from '../../shell/field.js';
import type { CommandContext } from '../context.js';
import type { CwdValue } from '../../shell/state.js';
import { joinPath, normalizeLogical } from '../../shell/paths.js';
import { hasOption, optionValues, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';
import { commandOptions } from '../kinds.js';

const TAR_VALUE_SHORT = 'fCbgHKLNTVX';

const TAR_VALUE_LONG = ['file', 'directory', 'blocking-factor', 'listed-incremental', 'format', 'starting-file', 'newer', 'after-date', 'files-from', 'label', 'exclude-from', 'use-compress-program', 'transform', 'xform', 'owner', 'group', 'mode', 'exclude'];

/** Archives a script created with known members (`tar -cf a.tar src`), per analysis. */
const ARCHIVES = new WeakMap<CommandContext, Map<string, string[]>>();

function archivesOf(interp: CommandContext): Map<string, string[]> {
  let m = ARCHIVES.get(interp);
  if (!m) ARCHIVES.set(interp, (m = new Map()));
  return m;
}

const tar: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    let args = inv.args;
    // Old style: `tar xzf file.tgz` (first word is a cluster of letters without a dash).
    if (args[0] && !args[0].value.startsWith('-') && /^[A-Za-z]+$/.test(args[0].value)) {
      args = [{ ...args[0], value: '-' + args[0].value }, ...args.slice(1)];
    }
    const p = parseArgs(args, { short: TAR_VALUE_SHORT, long: TAR_VALUE_LONG });
    const extract = hasOption(p, '-x', '--extract', '--get');
    const create = hasOption(p, '-c', '--create', '-r', '--append', '-u', '--update', '-A', '--catenate', '--concatenate');
    const del = hasOption(p, '--delete');
    const dirs = optionValues(p, '-C', '--directory');
    let cwd: CwdValue | undefined;
    if (dirs.length > 0) cwd = interp.resolveCd(inv.st, dirs[0]!, inv.range, false, 'tar -C');
    const files = optionValues(p, '-f', '--file');
    const archive = (f: Field | undefined): string | null => {
      if (!f || f.value === '-' || f.value.includes(HOLE)) return null;
      if (f.value.startsWith('/')) return normalizeLogical(f.value);
      const base = cwd?.paths ?? inv.st.cwd.paths;
      return base?.length === 1 ? normalizeLogical(joinPath(base[0]!, f.value)) : null;
    };
    if (create && !hasOption(p, '-T', '--files-from', '-r', '--append', '-u', '--update', '-A', '--catenate', '--concatenate')) {
      // Remember what an archive this command creates holds, for a later `tar -x` of it.
      const a = archive(files[0]);
      if (a && p.operands.length > 0 && p.operands.every((m) => !m.value.includes(HOLE) && !m.glob)) archivesOf(interp).set(a, p.operands.map((m) => m.value.replace(/^\/+/, '').replace(/\/+$/, '') || '.'));
    }
    if (extract && !hasOption(p, '-O', '--to-stdout', '--to-command')) {
      // `tar -xf a.tar MEMBER...`: only those members (and what lies below them) are written;
      // the same for an archive this command created from known members.
      const known = archivesOf(interp).get(archive(files[0]) ?? '');
      const listed = hasOption(p, '--wildcards', '-T', '--files-from') ? [] : p.operands;
      const members = listed.length === 0 && known ? known.map((value) => ({ value, confidence: 'likely' as const, evidence: [{ range: inv.range, note: `the archive was created here with ${value}` }], glob: false })) : listed;
      if (members.length > 0 && members.every((m) => !m.value.includes(HOLE) && !m.glob)) {
        // Leading `/` is stripped from member names unless -P (tar(1) --absolute-names).
        const absolute = hasOption(p, '-P', '--absolute-names');
        for (const m of members) {
          const value = absolute ? m.value : m.value.replace(/^\/+/, '') || '.';
          // A member may be a directory (`.`, `src`) holding any name below it.
          interp.write('write', { ...m, value }, inv.st, inv.range, 'tar -x', { subtree: true, cwdOverride: cwd, tree: true });
        }
      } else {
        const target = { value: '.', confidence: 'certain' as const, evidence: [], glob: false };
        interp.write('extract', target, inv.st, inv.range, 'tar -x', { subtree: true, cwdOverride: cwd });
      }
    }
    if (create || del) {
      // The archive is opened before -C applies only if -C comes after -f; bash users rarely rely on that.
      for (const f of files) if (f.value !== '-') interp.write('write', f, inv.st, inv.range, 'tar -f');
    }
  },
};

export default command({
  names: ['tar'],
  build: () => commandOptions(tar, ['--to-command', '-I', '--use-compress-program', '--info-script', '-F', '--new-volume-script', '--rsh-command']),
});

export const examples: readonly Example[] = [
  ['tar -xf /tmp/a.tar', 'ask'],
  ['tar -xf /tmp/a.tar -C build', 'allow'],
  ['tar -xf /tmp/a.tar -C ../..', 'deny'],
  ['tar -tf /tmp/a.tar', 'allow'],
];
