/**
 * Redirects: what `>`, `>>`, `<>`, `N>&M`, heredocs and herestrings do to a command's
 * descriptors. Opening them records the writes they make and points descriptors at the files
 * (so `/dev/fd/3` or `>&3` later lands there); closing them puts the descriptors back. A
 * heredoc or herestring becomes the command's stdin.
 */
import type { Range, Redirect, SimpleCommand } from '../syntax/ir.js';
import { HOLE, type WriteOp } from '../effects/types.js';
import type { Confidence } from '../effects/confidence.js';
import type { State } from '../shell/state.js';
import type { FdTarget } from '../shell/extras.js';
import { collapseHoleDots, descriptorOfPath, displayPath, joinPath, normalizeLogical } from '../shell/paths.js';
import type { Stdin, WriteOptions } from '../commands/context.js';
import { expandScalar, type ExpandHooks, type Field } from './expand.js';

/** What redirects need besides the state: expansion of their words, and the write they record. */
export interface RedirectHost extends ExpandHooks {
  write(op: WriteOp, field: Field, st: State, range: Range, command: string, opts?: WriteOptions): void;
}

/** What a command's redirects changed, to undo when it ends. */
export interface RedirectLayer {
  stdin: Stdin | null;
  /** Descriptors changed, with what they pointed at before (undefined: inherited). */
  saved: Map<number, FdTarget | null | undefined>;
  /** Descriptors opened for appending (`>>`). */
  appending: Set<number>;
}

/** Devices that are not descriptors of the command: writing them changes no file. */
const DEVICE_FILES = new Set(['/dev/null', '/dev/tty', '/dev/zero', '/dev/full', '/dev/random', '/dev/urandom']);

/** `exec {fd}>file`: a word `{name}` written right against a redirect names the descriptor. */
export function namedDescriptors(cmd: SimpleCommand, fields: Field[]): { variable: string; redirect: Redirect; field: Field }[] {
  const out: { variable: string; redirect: Redirect; field: Field }[] = [];
  if (cmd.redirects.length === 0) return out;
  for (const c of descriptorWords(cmd)) {
    const f = fields.find((x) => x.value === c.text);
    if (f) out.push({ variable: c.variable, redirect: c.redirect, field: f });
  }
  return out;
}

const NO_DESCRIPTOR_WORDS: { variable: string; redirect: Redirect; text: string }[] = [];

/**
 * The words `{name}` written right against a redirect without a number (syntax only). Computed
 * on each run: most commands have no redirect, and a per-command WeakMap cost more than the scan
 * (see expandWord in ./expand.ts).
 */
function descriptorWords(cmd: SimpleCommand): { variable: string; redirect: Redirect; text: string }[] {
  if (cmd.redirects.length === 0) return NO_DESCRIPTOR_WORDS;
  let list: { variable: string; redirect: Redirect; text: string }[] | null = null;
  for (let i = 1; i < cmd.words.length; i++) {
    const w = cmd.words[i]!;
    if (w.text.charCodeAt(0) !== 123 /* { */) continue;
    const m = /^\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(w.text);
    if (!m) continue;
    const r = cmd.redirects.find((x) => x.range.start === w.range.end && x.fd === null);
    if (r) (list ??= []).push({ variable: m[1]!, redirect: r, text: w.text });
  }
  return list ?? NO_DESCRIPTOR_WORDS;
}

/** The layer of a command without redirects: nothing saved, nothing to undo. Never written. */
export const NO_REDIRECTS: RedirectLayer = Object.freeze({ stdin: null, saved: new Map(), appending: new Set<number>() });

/**
 * Applies redirects in order: emits their writes, points descriptors at the files they open
 * (so `/dev/fd/3` or `>&3` later lands there), and returns the stdin a heredoc or herestring
 * provides. `closeRedirects` restores the descriptors when the command ends.
 */
export function openRedirects(host: RedirectHost, list: Redirect[], st: State): RedirectLayer {
  // Most commands have no redirect: one empty layer for all of them (only this method fills one).
  if (list.length === 0) return NO_REDIRECTS;
  const layer: RedirectLayer = { stdin: null, saved: new Map(), appending: new Set() };
  const point = (fd: number, target: FdTarget | null) => {
    if (!layer.saved.has(fd)) layer.saved.set(fd, st.extras.fds.has(fd) ? st.extras.fds.get(fd) : undefined);
    st.extras.fds.set(fd, target);
  };
  for (const r of list) {
    if (r.heredoc) {
      const body = r.heredoc.quoted
        ? { value: r.heredoc.body.parts.map((p) => (p.kind === 'text' ? p.value : '')).join(''), confidence: 'certain' as Confidence }
        : expandScalar(r.heredoc.body, st, host);
      let text = body.value;
      if (r.op === '<<-') text = text.replace(/^\t+/gm, '');
      if ((r.fd ?? 0) === 0) layer.stdin = { kind: 'text', text, known: !text.includes(HOLE) };
      continue;
    }
    if (!r.target) {
      if (r.op === '>&-' || r.op === '<&-') point(r.fd ?? (r.op === '>&-' ? 1 : 0), null);
      continue;
    }
    if (r.op === '<<<') {
      const f = expandScalar(r.target, st, host);
      if ((r.fd ?? 0) === 0) layer.stdin = { kind: 'text', text: f.value + '\n', known: !f.value.includes(HOLE) };
      continue;
    }
    const f = expandScalar(r.target, st, host);
    let op: WriteOp | null = null;
    switch (r.op) {
      case '>':
      case '>|':
      case '&>':
        op = 'write';
        break;
      case '>>':
      case '&>>':
        op = 'append';
        break;
      case '<>':
        op = 'create';
        break;
      case '>&':
      case '<&': {
        // `N>&M` duplicates M; `>&word` with a word that is not a number or `-` is `&>word`.
        if (/^\d+-?$/.test(f.value)) {
          const from = Number(f.value.replace(/-$/, ''));
          const target = descriptor(st, from);
          const fd = r.fd ?? (r.op === '>&' ? 1 : 0);
          if (target && r.op === '>&') host.write('append', { ...f, value: target.path }, st, r.range, `>&${from}`, { redirect: true, viaDescriptor: { fd: from, text: target.text } });
          point(fd, target ?? null);
          if (f.value.endsWith('-')) point(from, null);
          continue;
        }
        if (f.value === '-') {
          point(r.fd ?? (r.op === '>&' ? 1 : 0), null);
          continue;
        }
        if (r.op === '>&') op = 'write';
        break;
      }
      default:
        op = null;
    }
    const fd = r.fd ?? (r.op.startsWith('<') ? 0 : 1);
    const target = fdTargetOf(f, st);
    if (op) {
      host.write(op, f, st, r.range, r.op, { redirect: true });
      point(fd, target);
      if (op === 'append') layer.appending.add(fd);
      else layer.appending.delete(fd);
      if (r.op === '&>' || r.op === '&>>' || (r.op === '>&' && r.fd === null)) point(2, target);
    } else if (r.op === '<') point(fd, target);
  }
  return layer;
}

export function closeRedirects(st: State, layer: RedirectLayer): void {
  for (const [fd, prev] of layer.saved) {
    if (prev === undefined) st.extras.fds.delete(fd);
    else st.extras.fds.set(fd, prev);
  }
}

/** What descriptor `fd` points at: a file the command opened, or undefined for the descriptors the shell inherited. */
export function descriptor(st: State, fd: number): FdTarget | undefined {
  return st.extras.fds.get(fd) ?? undefined;
}

/** The file a redirect opens, as one absolute path (a device path is followed to its descriptor). */
function fdTargetOf(f: Field, st: State): FdTarget | null {
  const abs = f.value.startsWith('/') ? f.value : st.cwd.paths?.length === 1 && !f.value.startsWith(HOLE) ? joinPath(st.cwd.paths[0]!, f.value) : null;
  if (abs === null) return { path: HOLE, text: displayPath(f.value) };
  const dev = descriptorOfPath(abs);
  if (dev !== null) return descriptor(st, dev) ?? null;
  if (DEVICE_FILES.has(normalizeLogical(abs))) return null;
  return { path: collapseHoleDots(normalizeLogical(abs)), text: displayPath(f.value) };
}
