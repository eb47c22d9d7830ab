/**
 * Building blocks for the property-based and fuzz tests: path pools of the standard scenario
 * (docs/conventions.md), write commands from the command table, quoting styles, wrappers and
 * benign commands. Plain functions (no fast-check) so the fuzzer can reuse them.
 */
import { MAIN, OUTSIDE, SIBLING, WORKTREE } from '../../src/policy/scenario/standard.js';

export type Region = 'inside' | 'main' | 'sibling' | 'scratch' | 'outside';

/** Absolute paths by region, plus relative ones (from the worktree cwd) where they make sense. */
export const PATHS: Record<Region, { abs: string[]; rel: string[] }> = {
  inside: {
    abs: [`${WORKTREE}/x`, `${WORKTREE}/src/app.sh`, `${WORKTREE}/docs/guide.md`, `${WORKTREE}/a/b/c.txt`],
    rel: ['x', 'out.txt', 'src/app.sh', 'docs/guide.md', 'a/b/c.txt', './x', 'src/./new.sh'],
  },
  main: {
    abs: [`${MAIN}/README.md`, `${MAIN}/src/app.sh`, `${MAIN}/x`, `${MAIN}/docs/guide.md`],
    rel: ['../../README.md', '../../src/app.sh', '../../x'],
  },
  sibling: {
    abs: [`${SIBLING}/README.md`, `${SIBLING}/src/app.sh`, `${SIBLING}/x`],
    rel: ['../b2/x', '../b2/src/app.sh'],
  },
  scratch: { abs: ['/tmp/x', '/tmp/a/b.txt', '/var/tmp/y'], rel: [] },
  outside: {
    abs: [`${OUTSIDE}/x`, `${OUTSIDE}/notes.txt`, '/home/dev/x', '/etc/bg-test', '/usr/local/bin/tool'],
    rel: ['../../../other/x', '../../../../x'],
  },
};

export const FORBIDDEN: Region[] = ['main', 'sibling', 'outside'];

/**
 * Write commands, each a template over one path *word* (already quoted). All are simple commands
 * (possibly with a redirect or a pipeline producer), so they can be prefixed by a wrapper.
 */
export const WRITE_TEMPLATES: Array<{ name: string; make: (w: string) => string }> = [
  { name: '>', make: (w) => `echo hi > ${w}` },
  { name: '>>', make: (w) => `echo hi >> ${w}` },
  { name: '>|', make: (w) => `printf x >| ${w}` },
  { name: '&>', make: (w) => `cat README.md &> ${w}` },
  { name: '1>', make: (w) => `cat README.md 1>${w}` },
  { name: 'tee', make: (w) => `tee ${w} < README.md` },
  { name: 'tee -a', make: (w) => `tee -a ${w} < README.md` },
  { name: 'cp', make: (w) => `cp src/app.sh ${w}` },
  { name: 'cp -r', make: (w) => `cp -r src ${w}` },
  { name: 'cp -t', make: (w) => `cp -t ${w} src/app.sh` },
  { name: 'mv', make: (w) => `mv tmp.txt ${w}` },
  { name: 'touch', make: (w) => `touch ${w}` },
  { name: 'rm', make: (w) => `rm ${w}` },
  { name: 'rm -rf', make: (w) => `rm -rf ${w}` },
  { name: 'sed -i', make: (w) => `sed -i s/a/b/ ${w}` },
  { name: 'sed -i -e', make: (w) => `sed -i -e 's/a/b/' ${w}` },
  { name: 'dd', make: (w) => `dd if=/dev/zero of=${w} bs=1 count=1` },
  { name: 'install', make: (w) => `install -m 644 src/app.sh ${w}` },
  { name: 'ln -s', make: (w) => `ln -s src/app.sh ${w}` },
  { name: 'mkdir -p', make: (w) => `mkdir -p ${w}` },
  { name: 'truncate', make: (w) => `truncate -s 0 ${w}` },
  { name: 'chmod', make: (w) => `chmod 644 ${w}` },
  { name: 'sort -o', make: (w) => `sort -o ${w} README.md` },
  { name: 'unlink', make: (w) => `unlink ${w}` },
  { name: 'shred', make: (w) => `shred ${w}` },
  { name: 'gzip', make: (w) => `gzip ${w}` },
];

export type QuoteStyle = 'bare' | 'double' | 'single' | 'backslash' | 'split' | 'ansi' | 'ansi-hex' | 'var' | 'cmdsub' | 'home';
export const QUOTE_STYLES: QuoteStyle[] = ['bare', 'double', 'single', 'backslash', 'split', 'ansi', 'ansi-hex', 'var', 'cmdsub', 'home'];

/**
 * Writes `path` as a shell word in `style`; `prefix` is a statement to run first (the `var`
 * style's assignment). Paths in the pools hold no characters special to any of these styles.
 */
export function quotePath(path: string, style: QuoteStyle): { prefix: string; word: string } {
  const mid = Math.max(1, Math.floor(path.length / 2));
  switch (style) {
    case 'bare':
      return { prefix: '', word: path };
    case 'double':
      return { prefix: '', word: `"${path}"` };
    case 'single':
      return { prefix: '', word: `'${path}'` };
    case 'backslash':
      return { prefix: '', word: `\\${path}` };
    case 'split':
      return { prefix: '', word: `"${path.slice(0, mid)}""${path.slice(mid)}"` };
    case 'ansi':
      return { prefix: '', word: `$'${path}'` };
    case 'ansi-hex': {
      const i = path.indexOf('/');
      const hex = i >= 0 ? `${path.slice(0, i)}\\x2f${path.slice(i + 1)}` : `\\x${path.charCodeAt(0).toString(16).padStart(2, '0')}${path.slice(1)}`;
      return { prefix: '', word: `$'${hex}'` };
    }
    case 'var':
      return { prefix: `V=${path}; `, word: '"${V}"' };
    case 'cmdsub':
      return { prefix: '', word: `"$(echo ${path})"` };
    case 'home':
      // $HOME is /home/dev in the scenario
      return { prefix: '', word: path.startsWith('/home/dev/') ? `"\${HOME}"/${path.slice('/home/dev/'.length)}` : path };
  }
}

function endsWithAmp(c: string): boolean {
  return /(^|[^&])&\s*$/.test(c);
}

/** `c` followed by what ends it inside a group: `; `, or just a space after a trailing `&`. */
function term(c: string): string {
  return endsWithAmp(c) ? `${c} ` : `${c}; `;
}

/**
 * Joins commands with separators, keeping the result valid bash: after a trailing `&` (which
 * already ends a command) the separator becomes a newline.
 */
export function joinSequence(items: string[], seps: string[]): string {
  let out = items[0] ?? '';
  for (let i = 1; i < items.length; i++) {
    const sep = seps[i - 1] ?? '; ';
    out += (endsWithAmp(out) ? '\n' : sep) + items[i];
  }
  return out;
}

/** Single-quotes `s` for the shell. */
export function sq(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}

/** Double-quotes `s` for the shell. */
export function dq(s: string): string {
  return `"${s.replace(/[\\"$`]/g, '\\$&')}"`;
}

export type WrapperKind = 'prefix' | 'string' | 'compound';
export interface Wrapper {
  name: string;
  kind: WrapperKind;
  wrap: (cmd: string) => string;
}

/** Wrappers: prefix ones need a simple command; string and compound ones take any script. */
export const WRAPPERS: Wrapper[] = [
  { name: 'bash -c', kind: 'string', wrap: (c) => `bash -c ${sq(c)}` },
  { name: 'sh -c', kind: 'string', wrap: (c) => `sh -c ${sq(c)}` },
  { name: 'bash -c "..."', kind: 'string', wrap: (c) => `bash -c ${dq(c)}` },
  { name: 'eval', kind: 'string', wrap: (c) => `eval ${sq(c)}` },
  { name: 'sudo', kind: 'prefix', wrap: (c) => `sudo ${c}` },
  { name: 'env X=1', kind: 'prefix', wrap: (c) => `env X=1 ${c}` },
  { name: 'timeout 5', kind: 'prefix', wrap: (c) => `timeout 5 ${c}` },
  { name: 'nice', kind: 'prefix', wrap: (c) => `nice ${c}` },
  { name: 'nohup', kind: 'prefix', wrap: (c) => `nohup ${c}` },
  { name: 'command', kind: 'prefix', wrap: (c) => `command ${c}` },
  { name: 'time', kind: 'prefix', wrap: (c) => `time ${c}` },
  { name: '( )', kind: 'compound', wrap: (c) => `( ${c} )` },
  { name: '{ ; }', kind: 'compound', wrap: (c) => `{ ${term(c)}}` },
  { name: 'if', kind: 'compound', wrap: (c) => `if true; then ${term(c)}fi` },
  { name: 'for', kind: 'compound', wrap: (c) => `for i in 1; do ${term(c)}done` },
  { name: 'pipe', kind: 'compound', wrap: (c) => `x | ${c}` },
  // `c & &` is not bash: a command already sent to the background is grouped first.
  { name: '&', kind: 'compound', wrap: (c) => (endsWithAmp(c) ? `{ ${c} } &` : `${c} &`) },
];

/**
 * Applies wrappers innermost first. A prefix wrapper on a non-simple command is replaced by
 * `bash -c` around it (`sudo ( ... )` is not bash). Returns the command and the names applied.
 */
export function applyWrappers(cmd: string, simple: boolean, chain: Wrapper[]): { cmd: string; names: string[]; simple: boolean } {
  const names: string[] = [];
  for (const w of chain) {
    if (w.kind === 'prefix' && !simple) {
      cmd = `${w.name} bash -c ${sq(cmd)}`;
      names.push(`${w.name} bash -c`);
      simple = true;
      continue;
    }
    cmd = w.wrap(cmd);
    names.push(w.name);
    simple = w.kind !== 'compound';
  }
  return { cmd, names, simple };
}

/** Commands that only read, or write inside the worktree, and never leave the cwd. */
export const BENIGN: string[] = [
  'ls',
  'pwd',
  'cat README.md',
  'grep -r foo src',
  'echo ok > out.txt',
  'echo ok >> log.txt',
  'mkdir -p build',
  'touch new.txt',
  'cp README.md README.bak',
  'sed -i s/a/b/ docs/guide.md',
  'git status',
  'git add README.md',
  'git diff',
  'rm -f build/tmp.o',
  'echo hi | tee out2.txt',
  '(cd src && ls)',
  'true',
];

export const SEPARATORS = ['; ', ' && ', ' || ', '\n', ' | ', ' & '];

/**
 * One write command: `template` over `path` quoted in `style`, wrapped by `chain`. The `var`
 * style's assignment is grouped with its use (`{ V=...; cmd; }`) so a wrapper that runs its
 * command in a subshell or child shell still sees it.
 */
export function buildWrite(path: string, style: QuoteStyle, make: (w: string) => string, chain: Wrapper[] = []): string {
  const q = quotePath(path, style);
  const core = q.prefix === '' ? make(q.word) : chain.length ? `{ ${q.prefix}${make(q.word)}; }` : q.prefix + make(q.word);
  return applyWrappers(core, q.prefix === '', chain).cmd;
}
