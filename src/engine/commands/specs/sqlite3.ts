import { HOLE } from '../../effects/types.js';
import type { Confidence } from '../../effects/confidence.js';
import type { Field } from '../../shell/field.js';
import { displayPath } from '../../shell/paths.js';
import { type Example, type CommandSpec, command } from '../spec.js';

/** sqlite3 DB [SQL]: statements and dot-commands that write the database or other files. */
const SQLITE_VALUE = new Set(['-cmd', '-init', '-separator', '-newline', '-nullvalue', '-mmap', '-lookaside', '-pagecache', '-vfs', '-maxsize', '-heap', '-pcachetrace', '-A', '-escape']);

const sqlite3: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const a = inv.args;
    const operands: Field[] = [];
    const cmds: string[] = [];
    let readonly = false;
    for (let i = 0; i < a.length; i++) {
      const v = a[i]!.value;
      if (operands.length === 0 && v.startsWith('-') && v !== '-') {
        const name = v.replace(/^--/, '-');
        if (name === '-readonly' || name === '-safe') readonly = true;
        if (name === '-cmd' && a[i + 1]) cmds.push(a[i + 1]!.value);
        if (SQLITE_VALUE.has(name)) i++;
        continue;
      }
      operands.push(a[i]!);
    }
    const db = operands[0];
    const given = [...cmds, ...operands.slice(1).map((f) => f.value)];
    const stdin = inv.stdin.kind === 'text' ? inv.stdin : null;
    if (given.length === 0 && stdin) given.push(stdin.text);
    const sql = given.join('\n');
    const known = !sql.includes(HOLE) && given.length > 0;
    const field = (value: string, conf: Confidence): Field => ({ value, confidence: conf, evidence: [{ range: inv.range, note: `sqlite3 writes ${displayPath(value)}` }], glob: false });
    for (const m of sql.matchAll(/^\s*\.(?:output|once|backup|save|excel)\s+(?:main\s+)?("[^"]+"|'[^']+'|\S+)/gm)) {
      const f = m[1]!.replace(/^['"]|['"]$/g, '');
      if (f !== 'stdout' && f !== '-e' && f !== '-x') interp.write('write', field(f, 'likely'), inv.st, inv.range, 'sqlite3 .output');
    }
    for (const m of sql.matchAll(/\b(?:attach(?:\s+database)?|vacuum(?:\s+\w+)?\s+into)\s+'([^']+)'/gi)) interp.write('write', field(m[1]!, 'likely'), inv.st, inv.range, 'sqlite3');
    for (const m of sql.matchAll(/^\s*\.(?:shell|system)\s+(.+)$/gm)) interp.runNested(m[1]!, interp.child(inv.st), inv.range, 'sqlite3 .shell');
    if (!db || db.value === ':memory:' || db.value === '' || readonly) return;
    if (!known) {
      // Statements from a terminal or an unknown stdin: any of them may write the database.
      interp.write('modify', { ...db, confidence: 'possible' }, inv.st, inv.range, 'sqlite3');
      return;
    }
    // Opening a database file creates it (even to read); statements that change it modify it.
    const changes = /\b(?:create|insert|update|delete|drop|alter|replace|vacuum|reindex|analyze)\b|^\s*\.(?:import|restore|load|recover)\b/im.test(sql);
    if (given.length > 0) interp.write(changes ? 'modify' : 'create', db, inv.st, inv.range, 'sqlite3');
  },
};

export default command({
  names: ['sqlite3'],
  build: () => sqlite3,
});

export const examples: readonly Example[] = [
  ['sqlite3 ../../app.db vacuum', 'deny'],
  ['sqlite3 app.db vacuum', 'allow'],
  ['sqlite3 -readonly ../../app.db .tables', 'allow'],
];
