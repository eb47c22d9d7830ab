/**
 * Lint reads every line (issue #40): guards of any length before `exit`/`return` are conditional,
 * every function body is analyzed, a parse error costs only its own top-level command, the
 * bash-valid constructs the grammar read wrongly cost nothing (each with a write before and after
 * it), a write in a sourced file is reported there, and nothing depends on this machine's disk
 * or clock (a step budget, `--incomplete`, `--read-disk`).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/memory-io.js';
import { layoutBase } from '../../helpers/git-layout.js';

const CHECKOUT = realpathSync(mkdtempSync(join(layoutBase(), 'bg-lint-every-line-')));
execFileSync('git', ['init', '-q', CHECKOUT]);
afterAll(() => rmSync(CHECKOUT, { recursive: true, force: true }));

interface Finding {
  rule: string;
  severity: string;
  confidence: string;
  message: string;
  file: string;
  line: number;
  evidence: { line: number; note: string; file?: string }[];
}

async function lint(args: string[]): Promise<{ code: number; findings: Finding[]; err: string }> {
  const { code, out, err } = await runCli(['lint', '--format', 'json', '--timeout', '0', '--cwd', 'script', ...args], { env: { HOME: '/home/tester', TMPDIR: '/tmp' }, cwd: CHECKOUT });
  let findings: Finding[] = [];
  try {
    findings = (JSON.parse(out) as { files: { findings: Finding[] }[] }).files.flatMap((f) => f.findings);
  } catch {
    throw new Error(`no JSON (exit ${code}): ${out}${err}`);
  }
  return { code, findings, err };
}

let n = 0;
function script(body: string, name = `s${n++}.sh`): string {
  const p = join(CHECKOUT, name);
  mkdirSync(join(p, '..'), { recursive: true });
  writeFileSync(p, body);
  return p;
}

const bash = spawnSync('bash', ['--version']).status === 0;

/** The lines of BG1001 findings (writes outside the checkout). */
const writes = (fs: Finding[]) => fs.filter((f) => f.rule === 'BG1001').map((f) => f.line).sort((a, b) => a - b);

describe('bash-valid constructs the grammar misread cost nothing: the writes before and after are reported', () => {
  const constructs: [string, string][] = [
    ['extglob @(a|b) in case', 'case $x in @(a|b)) echo 1;; esac'],
    ['extglob +([0-9]) in case', 'case $x in +([0-9])) echo 2;; esac'],
    ['extglob *.@(jar|zip) in case', 'case $x in *.@(jar|zip)) echo 3;; esac'],
    ['all three in one case', 'case $x in @(a|b)) echo 1;; +([0-9])) echo 2;; *.@(jar|zip)) echo 3;; esac'],
    ['extglob in [[ ]]', '[[ $f == @(a|b) ]] && echo y'],
    ['${a[@]:i-1}', 'echo "${a[@]:i-1}"'],
    ['${x::${#y}-1}', 'echo "${x::${#y}-1}"'],
    ['${x%%]*}', 'echo "${x%%]*}"'],
    ['a heredoc inside $( )', 'v=$(cat <<EOT\nhello )\nEOT\n)'],
    ['a quoted heredoc inside "$( )"', "v=\"$(cat <<'EOT'\nit's ( here\nEOT\n)\""],
    ['[[ $cur = -* && $x != exec ]]', '[[ $cur = -* && $x != exec ]] && echo z'],
    ["quotes in a heredoc body inside $( )", "ps=$(\n  cat <<PSEOF\n\\$p = [C]::F('${pfx}')\nPSEOF\n)"],
    ['`;` after a nested expansion in ${x:+...}', 'echo "${out:+${out};}1"'],
    ['`{` in a ${...} pattern', 'old=${response#*{\\"name\\":\\""$sub"\\",\\"ttl\\":20}'],
  ];
  const all = constructs.map(([, c]) => c).join('\n');
  for (const parser of ['native', 'wasm']) {
    it.each(constructs)(`${parser}: %s`, async (_name, construct) => {
      const src = `#!/bin/bash\nshopt -s extglob\ntouch /etc/before\n${construct}\ntouch /etc/after\n`;
      const p = script(src);
      if (bash) expect(spawnSync('bash', ['-O', 'extglob', '-n', p]).status).toBe(0);
      const { findings } = await lint(['--parser', parser, p]);
      expect(findings.filter((f) => f.rule === 'BG0001')).toEqual([]);
      const after = src.split('\n').indexOf('touch /etc/after') + 1;
      expect(writes(findings)).toEqual([3, after]);
    });
    it(`${parser}: all of them in one file`, async () => {
      const src = `#!/bin/bash\nshopt -s extglob\ntouch /etc/before\n${all}\ntouch /etc/after\n`;
      const p = script(src);
      if (bash) expect(spawnSync('bash', ['-O', 'extglob', '-n', p]).status).toBe(0);
      const { findings } = await lint(['--parser', parser, p]);
      expect(findings.filter((f) => f.rule === 'BG0001')).toEqual([]);
      expect(writes(findings)).toEqual([3, src.split('\n').indexOf('touch /etc/after') + 1]);
    });
  }
});

describe('a parse error costs only its own command', () => {
  it.each(['native', 'wasm'])('%s: the writes before and after a line bash rejects are reported, and the error fails the run', async (parser) => {
    const src = '#!/bin/bash\ntouch /etc/a\nf() {\n  echo )\n}\ntouch /etc/b\ncase $x in\n  a) touch /etc/c ;;\nesac\n';
    const p = script(src);
    if (bash) expect(spawnSync('bash', ['-n', p]).status).not.toBe(0);
    const { code, findings } = await lint(['--parser', parser, p]);
    expect(findings.filter((f) => f.rule === 'BG0001').map((f) => [f.line, f.severity, f.confidence])).toEqual([[3, 'error', 'certain']]);
    expect(writes(findings)).toEqual([2, 6, 8]);
    expect(code).toBe(1);
  });

  it("`\\${$v+set}` (an escaped `$`, then an expansion and `+`) is one word: eval of it reads dynamic code, not a parse error (libtool)", async () => {
    const p = script('#!/bin/bash\nfor v in $SAVED_VARS; do eval test -z \\"\\${$v+set}\\"; done\ntouch /etc/after-eval\n');
    const { findings } = await lint(['--min-confidence', 'possible', p]);
    expect(findings.filter((f) => f.rule === 'BG0001')).toEqual([]);
    expect(findings.filter((f) => f.rule === 'BG4002').map((f) => f.line)).toEqual([2]);
    expect(writes(findings)).toEqual([3]);
  });

  it('BG0001 severity is the configuration\'s', async () => {
    const dir = join(CHECKOUT, 'sev');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, '.bashguard.json'), JSON.stringify({ rules: { BG0001: 'warning' } }));
    const p = script('#!/bin/bash\necho )\n', 'sev/x.sh');
    const { code, findings } = await lint([p]);
    expect(findings.map((f) => [f.rule, f.severity])).toEqual([['BG0001', 'warning']]);
    expect(code).toBe(0);
  });
});

describe('guards of any length before exit or return are conditional', () => {
  it.each([
    ['[ -z "$1" ] && usage && exit', '[ -z "$1" ] && usage && exit'],
    ['grep -q x f && echo found && exit 0', 'grep -q x f && echo found && exit 0'],
    ['a || b || exit 1', 'a || b || exit 1'],
    ['cmd1 && cmd2 && cmd3 || exit 1', 'cmd1 && cmd2 && cmd3 || exit 1'],
  ])('%s', async (_name, guard) => {
    const p = script(`#!/bin/bash\ntouch /etc/before\n${guard}\ntouch /etc/after\n`);
    expect(writes((await lint([p])).findings)).toEqual([2, 4]);
  });

  it('A || B || return in a function', async () => {
    const p = script('#!/bin/bash\nf() {\n  A || B || return\n  touch /etc/in-f\n}\nf\n');
    expect(writes((await lint([p])).findings)).toEqual([4]);
  });

  it('a guard known to hold still ends the script (`true && exit`)', async () => {
    const p = script('#!/bin/bash\ntrue && exit\ntouch /etc/never\n');
    expect(writes((await lint([p])).findings)).toEqual([]);
  });
});

describe('every function body is analyzed', () => {
  it('a function no call reaches (a library), with unknown arguments', async () => {
    const p = script('#!/bin/bash\nsetup() {\n  mkdir -p /opt/tool\n  cp "$1" /usr/local/bin/\n}\n');
    const { findings } = await lint([p]);
    expect(writes(findings)).toEqual([3, 4]);
  });

  it('a write in a sourced file\'s function is reported in that file, at its line, with the call chain', async () => {
    mkdirSync(join(CHECKOUT, 'src1'), { recursive: true });
    script('helper() {\n  # a comment\n  touch "/etc/$1"\n}\n', 'src1/lib.sh');
    const main = script('#!/bin/bash\n. ./lib.sh\n\nhelper conf\n', 'src1/main.sh');
    const { findings } = await lint([main]);
    const f = findings.find((x) => x.message.includes('/etc/conf'))!;
    expect(f.file).toBe('src1/lib.sh');
    expect(f.line).toBe(3);
    expect(f.evidence.map((e) => `${e.file}:${e.line}: ${e.note}`)).toEqual(['src1/main.sh:4: calls helper']);
  });

  it('a suppression at the write in the sourced file applies', async () => {
    mkdirSync(join(CHECKOUT, 'src2'), { recursive: true });
    script('helper() {\n  # bashguard disable=BG1001 -- installs its config\n  touch "/etc/$1"\n}\n', 'src2/lib.sh');
    const main = script('#!/bin/bash\n. ./lib.sh\nhelper conf\n', 'src2/main.sh');
    const { findings } = await lint([main]);
    expect(findings.filter((x) => x.rule === 'BG1001')).toEqual([]);
  });
});

describe('nothing depends on the lint machine', () => {
  it('a step budget: reported with its count, exit 3 with --incomplete error, 0 with ignore', async () => {
    const p = script('#!/bin/bash\nfor i in 1 2 3 4 5 6 7 8 9 10; do echo $i; done\n');
    const r = await lint(['--max-steps', '5', p]);
    const limit = r.findings.filter((f) => f.rule === 'BG0002');
    expect(limit).toHaveLength(1);
    expect(limit[0]!.message).toContain('after 5 steps');
    expect(limit[0]!.severity).toBe('error');
    expect(r.code).toBe(3);
    expect((await lint(['--max-steps', '5', '--incomplete', 'ignore', p])).code).toBe(0);
    expect((await lint(['--max-steps', '5', '--incomplete', 'warn', p])).code).toBe(0);
    expect((await lint(['--max-steps', '1000', p])).code).toBe(0);
  });

  it('file tests are not answered from this machine\'s disk unless --read-disk', async () => {
    const p = script('#!/bin/bash\nif [ -d /proc ]; then :; else touch /etc/no-proc; fi\n');
    expect(writes((await lint([p])).findings)).toEqual([2]);
    expect(writes((await lint(['--read-disk', p])).findings)).toEqual([]);
  });
});

describe("ShellCheck's habits", () => {
  const raw = (args: string[]) => runCli(['lint', '--timeout', '0', '--cwd', 'script', ...args], { env: { HOME: '/home/tester', TMPDIR: '/tmp' }, cwd: CHECKOUT });

  it('`# bashguard source=` names the file a computed `source` reads', async () => {
    mkdirSync(join(CHECKOUT, 'hint/lib'), { recursive: true });
    script('put() { touch /etc/put; }\n', 'hint/lib/put.sh');
    const without = script('#!/bin/bash\nsource "$(find_lib)/put.sh"\nput\n', 'hint/a.sh');
    const withHint = script('#!/bin/bash\n# bashguard source=lib/put.sh\nsource "$(find_lib)/put.sh"\nput\n', 'hint/b.sh');
    expect((await lint([without])).findings.some((f) => f.message.includes('/etc/put'))).toBe(false);
    const f = (await lint([withHint])).findings.find((x) => x.message.includes('/etc/put'))!;
    expect(f.file).toBe('hint/lib/put.sh');
  });

  it('`# bashguard source-path=` and --source-path: where a sourced name is looked for', async () => {
    mkdirSync(join(CHECKOUT, 'sp/lib'), { recursive: true });
    script('put() { touch /etc/sp; }\n', 'sp/lib/common.sh');
    const p = script('#!/bin/bash\n# bashguard source-path=SCRIPTDIR/lib\n. "$LIBDIR/common.sh"\nput\n', 'sp/a.sh');
    expect((await lint([p])).findings.some((f) => f.message.includes('/etc/sp'))).toBe(true);
    const q = script('#!/bin/bash\n. "$LIBDIR/common.sh"\nput\n', 'sp/b.sh');
    expect((await lint([q])).findings.some((f) => f.message.includes('/etc/sp'))).toBe(false);
    expect((await lint(['--source-path', join(CHECKOUT, 'sp/lib'), q])).findings.some((f) => f.message.includes('/etc/sp'))).toBe(true);
  });

  it('the trusted config declares source paths and variables for a whole tree (sourcePath, vars)', async () => {
    mkdirSync(join(CHECKOUT, 'cfg/lib'), { recursive: true });
    script('put() { touch /etc/cfg; }\n', 'cfg/lib/common.sh');
    const p = script('#!/bin/bash\n. "$LIBDIR/common.sh"\nput\ntouch "$OUT/x"\n', 'cfg/a.sh');
    const before = (await lint([p])).findings;
    expect(before.some((f) => f.message.includes('/etc/cfg'))).toBe(false);
    expect(before.some((f) => f.message.includes('/opt/cfg/x'))).toBe(false);
    writeFileSync(join(CHECKOUT, '.bashguard.json'), JSON.stringify({ sourcePath: ['cfg/lib'], vars: { OUT: '/opt/cfg' } }));
    try {
      const after = (await lint([p])).findings;
      expect(after.some((f) => f.message.includes('/etc/cfg'))).toBe(true);
      expect(after.find((f) => f.rule === 'BG1001' && f.message.includes('/opt/cfg/x'))).toBeDefined();
      writeFileSync(join(CHECKOUT, '.bashguard.json'), JSON.stringify({ vars: { 'not a name': 'x' } }));
      // A bad declaration is a configuration error: the file is not read, and the run says so.
      expect((await lint([p])).code).toBe(2);
    } finally {
      rmSync(join(CHECKOUT, '.bashguard.json'));
    }
  });

  it('`# bashguard var NAME=value` and --var give a variable its value', async () => {
    const p = script('#!/bin/bash\n# bashguard var PREFIX=/usr/local\ntouch "$PREFIX/bin/tool"\n');
    expect((await lint([p])).findings.find((f) => f.rule === 'BG1001')?.message).toContain('/usr/local/bin/tool');
    const q = script('#!/bin/bash\ntouch "$DEST/x"\n');
    expect((await lint(['--var', 'DEST=/opt/d', q])).findings.find((f) => f.rule === 'BG1001')?.message).toContain('/opt/d/x');
  });

  it('text output: errors with frames, notes only counted; --notes lists them; --quiet prints errors only', async () => {
    const p = script('#!/bin/bash\ntouch /etc/x\nrm -rf "$UNKNOWN_DIR"\n');
    const all = await raw(['--format', 'gcc', '--min-confidence', 'certain', p]);
    const notes = all.out.split('\n').filter((l) => l.includes(': note:')).length;
    expect(notes).toBeGreaterThan(0);
    const text = await raw([p, '--min-confidence', 'certain']);
    expect(text.out).toContain('touch /etc/x');
    expect(text.out).toContain(`${notes} note${notes === 1 ? '' : 's'} not shown (--notes lists them)`);
    expect((await raw([p, '--min-confidence', 'certain', '--notes'])).out).not.toContain('not shown');
    const quiet = await raw(['--quiet', p]);
    expect(quiet.out).toContain('/etc/x');
    expect(quiet.out).not.toMatch(/files? linted/);
  });

  it('-o writes the report to a file', async () => {
    const p = script('#!/bin/bash\ntouch /etc/o\n');
    const file = join(CHECKOUT, 'report.json');
    const r = await raw(['--format', 'json', '-o', file, p]);
    expect(r.out).toBe('');
    expect(r.code).toBe(1);
    expect(JSON.parse(readFileSync(file, 'utf8')).files[0].findings[0].message).toContain('/etc/o');
  });

  it('--prune-baseline drops the entries no finding matches', async () => {
    const p = script('#!/bin/bash\ntouch /etc/p1\ntouch /etc/p2\n');
    const base = join(CHECKOUT, 'prune.json');
    await raw(['--baseline-write', base, p]);
    expect(JSON.parse(readFileSync(base, 'utf8')).findings).toHaveLength(2);
    writeFileSync(p, '#!/bin/bash\ntouch /etc/p1\n');
    const r = await raw(['--baseline', base, '--prune-baseline', p]);
    expect(r.code).toBe(0);
    expect(r.err).toContain('1 stale entry removed, 1 kept');
    expect(JSON.parse(readFileSync(base, 'utf8')).findings).toHaveLength(1);
  });
});

describe('baseline: a copied line', () => {
  it('the copy above a baselined line is the new finding, the old one stays accepted', async () => {
    const p = script('#!/bin/bash\necho start\ntouch /etc/dup\n');
    const base = join(CHECKOUT, 'dup.json');
    expect((await runCli(['lint', '--timeout', '0', '--baseline-write', base, p], { env: { HOME: '/home/tester', TMPDIR: '/tmp' }, cwd: CHECKOUT })).code).toBe(0);
    writeFileSync(p, '#!/bin/bash\ntouch /etc/dup\necho start\ntouch /etc/dup\n');
    const r = await lint(['--baseline', base, p]);
    expect(r.findings.map((f) => [f.rule, f.line])).toEqual([['BG1001', 2]]);
    expect(r.code).toBe(1);
  });

  it('BSD `sed -i ""` and `bash --version` are read as they are', async () => {
    const p = script('#!/bin/bash\nsed -i "" "$expr" notes.txt\nbash --version | head -1\n');
    expect((await lint(['--min-confidence', 'possible', p])).findings).toEqual([]);
  });
});
