/**
 * crontab FILE / crontab -: installs the user's crontab, whose commands cron runs later in the
 * user's home directory, outside any sandbox (daemon.ts). -l lists; -r removes the installed
 * crontab (state outside the worktree); -e edits it.
 */
import { parseArgs, hasOption } from '../args.js';
import { handOver } from '../daemon.js';
import { type Example, type CommandSpec, command } from '../spec.js';

/** The commands of a crontab's text (crontab(5): five time fields or an @keyword, then the command up to an unescaped %). */
function cronCommands(text: string): string[] {
  const out: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(line)) continue;
    const m = /^(?:@\w+|(?:\S+\s+){4}\S+)\s+(.*)$/.exec(line);
    if (!m) continue;
    out.push(m[1]!.replace(/(?<!\\)%.*$/, '').replace(/\\%/g, '%'));
  }
  return out;
}

const crontab: CommandSpec = {
  category: 'wrapper',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: 'uc' });
    if (hasOption(p, '-l')) return;
    const daemon = 'cron';
    if (hasOption(p, '-r', '-e')) {
      handOver(inv, interp, { daemon, what: `crontab ${hasOption(p, '-r') ? '-r' : '-e'}`, code: null, cwd: null });
      return;
    }
    const src = p.operands[0];
    const text = src === undefined || src.value === '-' ? (inv.stdin.kind === 'text' && inv.stdin.known ? inv.stdin.text : null) : null;
    const code = text === null ? null : cronCommands(text).join('\n');
    handOver(inv, interp, { daemon, what: 'crontab', code, cwd: null });
  },
};

export default command({
  names: ['crontab'],
  build: () => crontab,
});

export const examples: readonly Example[] = [
  ['crontab -l', 'allow'],
  ["echo '* * * * * touch /home/dev/repo/x' | crontab -", 'deny'],
  ["echo '@reboot echo hi' | crontab -", 'ask'],
  ['crontab jobs.txt', 'ask'],
];
