/**
 * Issue 51, item 4 (the kernel's side): under enforcement a wrapped command cannot reach a process
 * outside the sandbox through a Unix socket (src/layers/sandbox/seccomp.ts), unless the trusted
 * config says `"unixSockets": "allow"`. Checked for real under bubblewrap: a Unix server started
 * outside (pathname and abstract), reached with socat and with Python; TCP to a loopback server
 * still works; every system-call ABI the kernel offers (x86-64's i386 `int 0x80` and x32 entries)
 * and io_uring are refused too.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGitLayout, type GitLayout } from '../../helpers/git-layout.js';
import { openWorkspace, tighten } from '../../../src/policy/workspace/index.js';
import { enforceCall, enforcementStatus } from '../../../src/layers/sandbox/enforce.js';
import { unixSocketFilter } from '../../../src/layers/sandbox/seccomp.js';
import { DEFAULT_CONFIG, parseConfig, parseConfigLayer, ConfigError } from '../../../src/policy/config.js';
import { cleanEnv, runWrapper } from '../../helpers/layers.js';
import { bwrapHere } from '../../helpers/bwrap.js';
import { landlockAvailable, landlockBuiltin, landlockHelper } from '../../../src/layers/sandbox/probes.js';
import { cannotRun } from '../../helpers/shared.js';
import { smallCache } from '../../../src/runtime/startup/small-cache.js';

describe('the Unix-socket filter (its program)', () => {
  it('exists for x64 and arm64 and not for an architecture it does not know', () => {
    for (const arch of ['x64', 'arm64']) {
      const f = unixSocketFilter(arch)!;
      expect(f.length % 8).toBe(0);
      // (the last instruction allows: every call the filter does not name)
      expect(new DataView(f.buffer).getUint32(f.length - 4, true)).toBe(0x7fff0000);
    }
    expect(unixSocketFilter('ia32')).toBeNull();
    expect(unixSocketFilter('riscv64')).toBeNull();
  });

  it('is blocked by default; only a trusted file allows it, and a worktree file may only block', () => {
    expect(DEFAULT_CONFIG.unixSockets).toBe('block');
    expect(parseConfig('{"unixSockets": "allow"}', '/t/.bashguard.json', '/t').unixSockets).toBe('allow');
    expect(() => parseConfig('{"unixSockets": true}', '/t/.bashguard.json', '/t')).toThrow(ConfigError);
    const notices: string[] = [];
    expect(tighten(DEFAULT_CONFIG, parseConfigLayer('{"unixSockets": "allow"}', '/w/.bashguard.json', '/w'), notices).unixSockets).toBe('block');
    expect(notices.join('\n')).toMatch(/unixSockets: allow ignored/);
    const allowed = { ...DEFAULT_CONFIG, unixSockets: 'allow' as const };
    expect(tighten(allowed, parseConfigLayer('{"unixSockets": "block"}', '/w/.bashguard.json', '/w'), []).unixSockets).toBe('block');
  });
});

describe.skipIf(process.platform !== 'linux' || !landlockHelper())("the helper's --seccomp", () => {
  it('refuses a program that is not whole instructions of hex, before running anything', () => {
    for (const bad of ['zz', '0', '', `${'0'.repeat(16 * 4097)}`, 'g'.repeat(16)]) {
      const r = spawnSync(landlockHelper()!, ['--mounts', '', '--seccomp', bad, '--', '/bin/sh', '-c', 'echo ran'], { encoding: 'utf8' });
      expect(r.status, bad.slice(0, 20)).toBe(125);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^bashguard-landlock: --seccomp: /);
    }
  });
});

const { canRun } = bwrapHere('the Unix-socket filter runs under bubblewrap');
const socat = ['/usr/bin/socat', '/bin/socat'].find((p) => spawnSync(p, ['-V']).status === 0) ?? null;
const python = spawnSync('python3', ['-c', 'import socket']).status === 0 ? 'python3' : null;
const cc = spawnSync('cc', ['--version']).status === 0 && process.arch === 'x64' ? 'cc' : null;
const tmux = ['/usr/bin/tmux', '/bin/tmux', '/usr/local/bin/tmux'].find((p) => spawnSync(p, ['-V']).status === 0) ?? null;
for (const [what, here] of [
  ['socat', socat],
  ['python3', python],
  ['tmux', tmux],
] as const) {
  if (canRun && !here) cannotRun(`the Unix-socket runs that need ${what}: not installed`);
}

/** A server outside the sandbox: answers `hello` on a Unix socket (pathname and abstract) and on TCP. */
const SERVER = String.raw`
import socket, sys, threading, os
path, abstract = sys.argv[1], sys.argv[2]
def serve(s):
    s.listen(8)
    while True:
        c, _ = s.accept(); c.sendall(b'hello\n'); c.close()
u = socket.socket(socket.AF_UNIX); u.bind(path)
a = socket.socket(socket.AF_UNIX); a.bind('\0' + abstract)
t = socket.socket(socket.AF_INET); t.bind(('127.0.0.1', 0))
for s in (u, a, t): threading.Thread(target=serve, args=(s,), daemon=True).start()
print(t.getsockname()[1], flush=True)
threading.Event().wait()
`;

/** Connects as the sandboxed command would; prints what it got or the error's name. */
const CLIENT = String.raw`
import socket, sys, errno
kind, where = sys.argv[1], sys.argv[2]
try:
    if kind == 'tcp':
        s = socket.create_connection(('127.0.0.1', int(where)))
    else:
        s = socket.socket(socket.AF_UNIX); s.connect(('\0' + where) if kind == 'abstract' else where)
    print(s.recv(16).decode().strip())
except OSError as e:
    print(errno.errorcode.get(e.errno, str(e.errno)))
`;

/** x86-64's other entries into the kernel: i386's socket (359) and socketcall (102) by `int 0x80`, x32's socket; and io_uring_setup. Prints each errno (0: a descriptor). */
const ABI_PROBE = String.raw`
#include <stdio.h>
#include <errno.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <sys/wait.h>
static long i386(long nr, long a, long b, long c) {
  long r;
  __asm__ volatile ("int $0x80" : "=a"(r) : "a"(nr), "b"(a), "c"(b), "d"(c) : "memory");
  return r;
}
static int err(long r) { return r < 0 && r > -4096 ? (int)-r : 0; }
/* In a child: on a kernel without IA32 emulation there is no i386 entry, and int 0x80 faults. */
static void via_i386(const char *name, long nr, long a, long b) {
  fflush(stdout);
  pid_t p = fork();
  if (p == 0) { printf("%s %d\n", name, err(i386(nr, a, b, 0))); fflush(stdout); _exit(0); }
  int st = 0;
  if (p < 0 || waitpid(p, &st, 0) != p || !WIFEXITED(st)) printf("%s none\n", name);
}
int main(void) {
  via_i386("i386-socket", 359, 1, 1);
  via_i386("i386-socketcall", 102, 1, 0);
  long x = syscall(0x40000000 | 41, 1, 1, 0);
  printf("x32-socket %d\n", x < 0 ? errno : 0);
  long u = syscall(425, 1, 0);
  printf("io_uring %d\n", u < 0 ? errno : 0);
  return 0;
}
`;

// Three ways, as test/system/layers/enforce.test.ts: the mounts made in the client's own bash (the
// builtin), by the helper (a client temp dir the plan keeps read-only), and by bubblewrap itself.
const helper = landlockHelper();
const builtinHere = helper !== null && landlockBuiltin(helper) !== null;
const landlock = landlockAvailable(process.env);
if (canRun && python && !landlock.ok) cannotRun(`the Unix-socket runs under Landlock: ${landlock.why}`);
describe.skipIf(!canRun || !python).each(
  [
    { path: "in the client's shell", by: 'shell' as const },
    { path: 'by the helper', by: 'helper' as const },
    { path: 'bwrap', by: 'bwrap' as const },
    { path: "Landlock, in the client's shell", by: 'landlock' as const },
    { path: 'Landlock, by the helper', by: 'landlock-helper' as const },
  ].filter((r) => landlock.ok || !r.by.startsWith('landlock')),
)('Unix sockets under enforcement, for real: $path', ({ by }) => {
  let L: GitLayout;
  let server: ChildProcess;
  let port = '';
  let sock = '';
  const abstract = `bashguard-test-${process.pid}-${by}`;
  let env: NodeJS.ProcessEnv;

  const wrap = (command: string, layout: GitLayout = L) => {
    const ws = openWorkspace(layout.worktree, { env });
    if (by === 'landlock' || by === 'landlock-helper') {
      const e = enforceCall(ws, command, 'landlock', env);
      if (e.kind !== 'landlock') throw new Error(`not enforced: ${JSON.stringify(e)}`);
      expect(/builtin bashguard_landlock/.test(e.command), 'the builtin in the client shell').toBe(by === 'landlock' && builtinHere);
      return e.command;
    }
    const e = enforceCall(ws, command, by === 'bwrap' ? 'bwrap' : 'auto', env);
    if (e.kind !== 'bwrap') throw new Error(`not enforced: ${JSON.stringify(e)}`);
    expect(e.by, 'who makes the mounts').toBe(by === 'shell' ? (builtinHere ? 'shell' : helper ? 'helper' : undefined) : by === 'helper' && helper ? 'helper' : undefined);
    return e.command;
  };
  const run = (command: string, layout: GitLayout = L) => runWrapper(wrap(command, layout), { cwd: layout.worktree, env });
  const client = (kind: string, where: string, layout?: GitLayout) => run(`python3 -c ${quote(CLIENT)} ${kind} ${quote(where)}`, layout);

  beforeAll(async () => {
    L = makeGitLayout('bashguard-unix-');
    const home = join(L.root, 'home');
    mkdirSync(home, { recursive: true });
    mkdirSync(join(L.root, 'tmp'), { recursive: true });
    mkdirSync(join(home, '.claude'), { recursive: true });
    env = cleanEnv({ HOME: home, TMPDIR: join(L.root, 'tmp'), SHELL: '/bin/bash' });
    // (a client temp dir the plan keeps read-only: the builtin cannot be used, the helper is)
    if (by === 'helper' || by === 'landlock-helper') env.CLAUDE_CODE_TMPDIR = join(home, '.claude');
    else delete env.CLAUDE_CODE_TMPDIR;
    sock = join(L.outside, 'daemon.sock');
    server = spawn('python3', ['-c', SERVER, sock, abstract], { stdio: ['ignore', 'pipe', 'inherit'] });
    port = await new Promise<string>((resolve, reject) => {
      server.stdout!.once('data', (d: Buffer) => resolve(d.toString().trim()));
      server.once('exit', (c) => reject(new Error(`server ended: ${c}`)));
    });
  });
  afterAll(() => {
    server?.kill();
    L?.cleanup();
  });

  it('reaches the server unwrapped (the test can fail)', () => {
    for (const [kind, where] of [['unix', sock], ['abstract', abstract], ['tcp', port]] as const) {
      const r = spawnSync('python3', ['-c', CLIENT, kind, where], { encoding: 'utf8' });
      expect(r.stdout.trim(), kind).toBe('hello');
    }
  });

  it('refuses a new Unix socket, pathname or abstract, to Python; TCP to loopback still works', () => {
    expect(client('unix', sock).stdout.trim()).toBe('EPERM');
    expect(client('abstract', abstract).stdout.trim()).toBe('EPERM');
    expect(client('tcp', port).stdout.trim()).toBe('hello');
  });

  it.skipIf(!socat)('refuses `socat - UNIX-CONNECT:<sock>`', () => {
    const r = run(`${socat} - UNIX-CONNECT:${quote(sock)} </dev/null`);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/Operation not permitted/);
    expect(r.stdout).not.toMatch(/hello/);
  });

  it.skipIf(!cc)("refuses x86-64's i386 and x32 socket entries and io_uring, which plain calls would not pass through", () => {
    const src = join(L.outside, 'abi.c');
    writeFileSync(src, ABI_PROBE);
    const bin = join(L.outside, 'abi');
    const c = spawnSync(cc!, ['-O0', '-o', bin, src], { encoding: 'utf8' });
    expect(c.status, c.stderr).toBe(0);
    const outside = Object.fromEntries(spawnSync(bin, { encoding: 'utf8' }).stdout.trim().split('\n').map((l) => l.split(' ')));
    // (unwrapped, the i386 socket is made: the filter is what refuses it below. A kernel built
    // without IA32 emulation has no i386 entry to refuse: int 0x80 faults there, in or out.)
    const i386 = outside['i386-socket'] === 'none' ? 'none' : '1';
    if (i386 !== 'none') expect(outside['i386-socket']).toBe('0');
    expect(outside['io_uring']).not.toBe('38');
    const inside = Object.fromEntries(run(bin).stdout.trim().split('\n').map((l) => l.split(' ')));
    expect(inside).toEqual({ 'i386-socket': i386, 'i386-socketcall': i386, 'x32-socket': '1', io_uring: '38' });
  });

  it.skipIf(!tmux)("keeps a tmux server outside from running a command for the sandboxed one (issue 51's escape)", () => {
    const tsock = join(L.outside, `tmux-${by}`);
    const target = join(L.main, `ESCAPED-${by}`);
    expect(spawnSync(tmux!, ['-S', tsock, '-f', '/dev/null', 'new-session', '-d', 'sleep 60']).status).toBe(0);
    try {
      const r = run(`${tmux} -S ${quote(tsock)} new-window -d ${quote(`touch ${target}`)}`);
      expect(r.code).not.toBe(0);
      // (the window's command would run at once in the server's own namespace)
      spawnSync('sleep', ['0.5']);
      expect(existsSync(target)).toBe(false);
      // benign twin: the same call from outside the sandbox does reach the server
      expect(spawnSync(tmux!, ['-S', tsock, 'new-window', '-d', `touch ${target}`]).status).toBe(0);
      for (let i = 0; i < 20 && !existsSync(target); i++) spawnSync('sleep', ['0.1']);
      expect(existsSync(target)).toBe(true);
    } finally {
      spawnSync(tmux!, ['-S', tsock, 'kill-server']);
      rmSync(target, { force: true });
    }
  });

  // (registered in the one case it is about, not skipped in the others: a skip in CI must name a platform reason)
  if (by === 'shell') it('is named by doctor: refused, or allowed and by which file', () => {
    expect(enforcementStatus(openWorkspace(L.worktree, { env }), env, []).detail).toMatch(/new Unix sockets refused \(seccomp\)/);
    const A = makeGitLayout('bashguard-unix-doctor-');
    try {
      writeFileSync(join(A.main, '.bashguard.json'), '{"unixSockets": "allow"}\n');
      const st = enforcementStatus(openWorkspace(A.worktree, { env }), env, []);
      expect(st.ok).toBe(true);
      expect(st.detail).toContain(`Unix sockets allowed ("unixSockets": "allow" in ${join(A.main, '.bashguard.json')})`);
    } finally {
      A.cleanup();
    }
  });

  if (by === 'bwrap') it("opens the filter from the hook's private cache where there is one (no fork), rewriting a file that was changed", () => {
    const store = smallCache(env)!;
    expect(store).not.toBeNull();
    const ws = openWorkspace(L.worktree, { env });
    const e = enforceCall(ws, `python3 -c ${quote(CLIENT)} unix ${quote(sock)}`, 'bwrap', env, undefined, store);
    if (e.kind !== 'bwrap') throw new Error('not enforced');
    const m = / 9<'?([^' )]+)'?\)/.exec(e.command);
    expect(m, 'a file, not a process substitution').not.toBeNull();
    expect(e.command).not.toContain('9< <(');
    const file = m![1]!;
    expect(new Uint8Array(readFileSync(file))).toEqual(unixSocketFilter());
    expect(runWrapper(e.command, { cwd: L.worktree, env }).stdout.trim()).toBe('EPERM');
    // a file that no longer holds the program (an allow-all filter put there) is written again
    writeFileSync(file, Buffer.from([0x06, 0, 0, 0, 0, 0, 0xff, 0x7f]));
    const again = enforceCall(ws, `python3 -c ${quote(CLIENT)} unix ${quote(sock)}`, 'bwrap', env, undefined, store);
    if (again.kind !== 'bwrap') throw new Error('not enforced');
    expect(new Uint8Array(readFileSync(file))).toEqual(unixSocketFilter());
    expect(runWrapper(again.command, { cwd: L.worktree, env }).stdout.trim()).toBe('EPERM');
  });

  it('lets every socket through where the trusted config says "unixSockets": "allow"', () => {
    const A = makeGitLayout('bashguard-unix-allow-');
    mkdirSync(join(A.root, 'tmp'), { recursive: true });
    try {
      writeFileSync(join(A.main, '.bashguard.json'), '{"unixSockets": "allow"}\n');
      expect(client('unix', sock, A).stdout.trim()).toBe('hello');
      expect(client('abstract', abstract, A).stdout.trim()).toBe('hello');
      // and a worktree's own file cannot allow them
      const B = makeGitLayout('bashguard-unix-wt-');
      mkdirSync(join(B.root, 'tmp'), { recursive: true });
      try {
        writeFileSync(join(B.worktree, '.bashguard.json'), '{"unixSockets": "allow"}\n');
        expect(client('unix', sock, B).stdout.trim()).toBe('EPERM');
      } finally {
        B.cleanup();
      }
    } finally {
      A.cleanup();
    }
  });
});

function quote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`;
}
