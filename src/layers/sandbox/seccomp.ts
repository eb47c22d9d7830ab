/**
 * The seccomp filter that keeps a wrapped command from reaching a process outside the sandbox
 * through a Unix socket (issue 51, item 4): a tmux or screen server, the docker daemon, the user's
 * systemd and D-Bus (`systemd-run --user`), `at`: each runs what it is asked with its own cwd, its
 * own mounts and its own rights, outside every read-only bind. Claude Code's sandbox
 * (@anthropic-ai/sandbox-runtime) blocks the same thing the same way: `socket(AF_UNIX, ...)` fails.
 *
 * Why not sandbox-runtime's own filter: it ships no filter bytes, only a static `apply-seccomp`
 * binary (x64, arm64; its source is not in the package) with the filter compiled in, which execs
 * the command after a nested user, pid and mount namespace of its own: one more process per call,
 * and namespaces on top of bubblewrap's. bubblewrap applies a classic BPF program it reads from a
 * descriptor (`--seccomp FD`) in the process it execs, at no extra cost, and bashguard's builtin
 * and helper install the same program from hex (native/seccomp-core.h); the program (40
 * instructions on x86-64) is written out here with the reason for each part.
 *
 * What it covers: every new Unix socket of the command and its children (pathname and abstract
 * names alike, since the socket is refused before any name is given), on every system-call ABI the
 * kernel offers the architecture (x86-64 with x32 and i386, arm64 with arm32), and io_uring, whose
 * socket and connect operations would not pass through the filter. What it does not: a Unix socket
 * the command inherits already open (the filter is about creation), `socketpair` (a connected pair
 * with no name: nothing outside can be on its other end), TCP to a loopback service (a server a
 * developer runs must stay reachable), and what the socket is for (seccomp cannot read the path
 * a `connect` names, so a path allow-list cannot be expressed; the trusted config allows all or
 * none: `"unixSockets"`).
 */

/** How a wrapped command may use Unix sockets: `block` (the default) or `allow` (trusted config only). */
export type UnixSocketsMode = 'block' | 'allow';

// Classic BPF opcodes (linux/filter.h) and seccomp's return values (linux/seccomp.h).
const LD_W_ABS = 0x20;
const JEQ_K = 0x15;
const RET_K = 0x06;
const RET_ALLOW = 0x7fff0000;
const RET_ERRNO = 0x00050000;
const EPERM = 1;
const ENOSYS = 38;

// struct seccomp_data: nr at 0, arch at 4, args[0] at 16 (its low 32 bits first: every
// architecture here is little-endian).
const NR = 0;
const ARCH = 4;
const ARG0 = 16;

const AF_UNIX = 1;
/** socketcall(2)'s first argument for socket(2). */
const SYS_SOCKET = 1;
/** x32 system calls are x86-64's numbers with this bit set. */
const X32 = 0x40000000;

interface Abi {
  arch: number;
  /** socket(2)'s number on this ABI. */
  socket: number[];
  /** socketcall(2)'s number, where the ABI multiplexes socket calls through it. */
  socketcall?: number;
  /** io_uring_setup, io_uring_enter, io_uring_register (the same numbers on every ABI here). */
  uring: number[];
}

const URING = [425, 426, 427];

/** The ABIs a process can call the kernel through, per Node architecture. */
const ABIS: Record<string, Abi[]> = {
  x64: [
    { arch: 0xc000003e, socket: [41, X32 | 41], uring: [...URING, ...URING.map((n) => X32 | n)] },
    // (a 64-bit process can still make i386 calls through `int 0x80`)
    { arch: 0x40000003, socket: [359], socketcall: 102, uring: URING },
  ],
  arm64: [
    { arch: 0xc00000b7, socket: [198], uring: URING },
    // (arm64's 32-bit compat table has no socketcall)
    { arch: 0x40000028, socket: [281], uring: URING },
  ],
};

type Insn = [code: number, jt: number, jf: number, k: number];

/**
 * The filter as bubblewrap reads it (`struct sock_filter[]`, 8 bytes each), for `arch` (a Node
 * `process.arch`); null where the architecture is not one listed (the caller says the sockets are
 * not held there). Every call the filter does not name is allowed: the mounts hold the files.
 */
export function unixSocketFilter(arch: string = process.arch): Uint8Array | null {
  const abis = ABIS[arch];
  if (!abis) return null;
  const prog: Insn[] = [];
  // Per ABI: if arch matches, its checks; else on to the next ABI. Jumps are relative, forward
  // only, at most 255: each block is short.
  const blocks = abis.map((abi) => abiBlock(abi));
  prog.push([LD_W_ABS, 0, 0, ARCH]);
  for (const [i, block] of blocks.entries()) {
    const abi = abis[i]!;
    // (arch is reloaded before every comparison after the first block: a block leaves nr in A)
    if (i > 0) prog.push([LD_W_ABS, 0, 0, ARCH]);
    prog.push([JEQ_K, 0, block.length, abi.arch]);
    prog.push(...block);
  }
  // An ABI not listed cannot be called on this architecture's kernels.
  prog.push([RET_K, 0, 0, RET_ALLOW]);
  const out = new Uint8Array(prog.length * 8);
  const view = new DataView(out.buffer);
  prog.forEach(([code, jt, jf, k], i) => {
    if (jt > 255 || jf > 255) throw new Error('seccomp filter: jump out of range');
    view.setUint16(i * 8, code, true);
    view.setUint8(i * 8 + 2, jt);
    view.setUint8(i * 8 + 3, jf);
    view.setUint32(i * 8 + 4, k >>> 0, true);
  });
  return out;
}

/**
 * One ABI's checks, ending in a return on every path: socket(AF_UNIX) and socketcall(SYS_SOCKET)
 * fail with EPERM, io_uring with ENOSYS (programs that try it fall back to plain system calls, as
 * on kernels without it); anything else is allowed.
 */
function abiBlock(abi: Abi): Insn[] {
  const out: Insn[] = [[LD_W_ABS, 0, 0, NR]];
  // The tail, built from the end: [load arg0, arg0 == AF_UNIX ? deny : allow] for socket, then
  // [load arg0, arg0 == SYS_SOCKET ? deny : allow] for socketcall.
  const checks: { nr: number; then: 'unix' | 'socketcall' | 'uring' }[] = [
    ...abi.socket.map((nr) => ({ nr, then: 'unix' as const })),
    ...(abi.socketcall !== undefined ? [{ nr: abi.socketcall, then: 'socketcall' as const }] : []),
    ...abi.uring.map((nr) => ({ nr, then: 'uring' as const })),
  ];
  // Layout after the comparisons: [0] allow, [1] ld arg0, [2] jeq AF_UNIX, [3] allow, [4] deny EPERM,
  // [5] ld arg0, [6] jeq SYS_SOCKET, [7] allow, [8] deny EPERM, [9] deny ENOSYS.
  const tail: Insn[] = [
    [RET_K, 0, 0, RET_ALLOW],
    [LD_W_ABS, 0, 0, ARG0],
    [JEQ_K, 1, 0, AF_UNIX],
    [RET_K, 0, 0, RET_ALLOW],
    [RET_K, 0, 0, RET_ERRNO | EPERM],
    [LD_W_ABS, 0, 0, ARG0],
    [JEQ_K, 1, 0, SYS_SOCKET],
    [RET_K, 0, 0, RET_ALLOW],
    [RET_K, 0, 0, RET_ERRNO | EPERM],
    [RET_K, 0, 0, RET_ERRNO | ENOSYS],
  ];
  const target = { unix: 1, socketcall: 5, uring: 9 };
  checks.forEach((c, i) => {
    // distance from the instruction after this comparison to the tail's entry
    const toTail = checks.length - 1 - i;
    out.push([JEQ_K, toTail + target[c.then], 0, c.nr]);
  });
  out.push(...tail);
  return out;
}

/**
 * The filter as shell text that writes it to standard output with `printf` (octal escapes: the
 * program holds NUL bytes, which no shell word can), for a process substitution in the wrapper:
 * bubblewrap reads it from that descriptor.
 */
export function filterPrintf(filter: Uint8Array): string {
  let s = '';
  for (const b of filter) s += `\\${b.toString(8).padStart(3, '0')}`;
  return `builtin printf '${s}'`;
}
