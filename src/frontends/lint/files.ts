/**
 * Which files `bashguard lint` reads: named files as given, and under named directories every
 * `*.sh` / `*.bash` file and every file whose first line is a sh/bash shebang. Directory walks skip
 * `.git` and `node_modules` and do not follow symlinks (named symlinks are read).
 */
import { closeSync, lstatSync, openSync, readdirSync, readSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { kindOf } from '../../util/safe-read.js';

export interface FileTarget {
  /** Absolute path, or '-' for stdin. */
  path: string;
  /** How to show it: relative to the cwd when below it. */
  display: string;
  /** Named on the command line (as opposed to found in a directory). */
  explicit: boolean;
}

export interface CollectResult {
  targets: FileTarget[];
  /** Arguments that could not be read (missing, permission): `path: reason`. */
  errors: string[];
}

const SKIP_DIRS = new Set(['.git', 'node_modules', '.hg', '.svn']);
const SHELLS = new Set(['sh', 'bash', 'dash', 'ash', 'ksh', 'mksh', 'posh']);

/** True when the first line is `#!/bin/sh`, `#!/usr/bin/env bash`, `#!/bin/bash -e` ... */
export function isShellShebang(firstLine: string): boolean {
  const m = /^#!\s*(\S+)(.*)$/.exec(firstLine);
  if (!m) return false;
  let prog = m[1]!.split('/').pop()!;
  let rest = m[2]!.trim().split(/\s+/).filter(Boolean);
  if (prog === 'env') {
    while (rest[0]?.startsWith('-') || /^\w+=/.test(rest[0] ?? '')) rest = rest.slice(1);
    prog = rest[0]?.split('/').pop() ?? '';
  }
  return SHELLS.has(prog);
}

function readHead(path: string): string | null {
  let fd: number | null = null;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(256);
    const n = readSync(fd, buf, 0, 256, 0);
    return buf.subarray(0, n).toString('latin1');
  } catch {
    return null;
  } finally {
    if (fd !== null) closeSync(fd);
  }
}

export function looksLikeShellScript(path: string, name: string): boolean {
  if (name.endsWith('.sh') || name.endsWith('.bash')) return true;
  const head = readHead(path);
  return head !== null && head.startsWith('#!') && isShellShebang(head.split('\n')[0]!);
}

export function displayName(abs: string, cwd: string): string {
  const rel = relative(cwd, abs);
  return rel && !rel.startsWith('..') && !rel.startsWith(sep) ? rel : abs;
}

/** Expands the PATH arguments in order, without duplicates. `ignored` filters directory entries and named files. */
export function collectTargets(args: string[], cwd: string, ignored: (abs: string, isDir: boolean) => boolean): CollectResult {
  const targets: FileTarget[] = [];
  const errors: string[] = [];
  const seen = new Set<string>();
  const add = (abs: string, explicit: boolean) => {
    if (seen.has(abs)) return;
    seen.add(abs);
    targets.push({ path: abs, display: displayName(abs, cwd), explicit });
  };
  const walk = (dir: string) => {
    let entries: string[];
    try {
      entries = readdirSync(dir).sort();
    } catch (err) {
      errors.push(`${displayName(dir, cwd)}: cannot read directory (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
      return;
    }
    for (const name of entries) {
      const p = join(dir, name);
      let st;
      try {
        st = lstatSync(p);
      } catch {
        continue;
      }
      if (st.isDirectory()) {
        if (!SKIP_DIRS.has(name) && !ignored(p, true)) walk(p);
      } else if (st.isFile() && !ignored(p, false) && looksLikeShellScript(p, name)) {
        add(p, false);
      }
    }
  };
  for (const arg of args) {
    if (arg === '-') {
      if (!seen.has('-')) {
        seen.add('-');
        targets.push({ path: '-', display: '<stdin>', explicit: true });
      }
      continue;
    }
    const abs = resolve(cwd, arg);
    let st;
    try {
      st = statSync(abs);
    } catch (err) {
      errors.push(`${arg}: ${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file or directory' : `cannot read (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`}`);
      continue;
    }
    if (st.isDirectory()) walk(abs);
    // A FIFO, socket or device would block the read (or never end): as the hook's reads
    // (src/util/safe-read.ts), only a regular file is read; stdin is `-`.
    else if (!st.isFile()) errors.push(`${arg}: ${kindOf(st)}, not a regular file; not read (\`-\` reads stdin)`);
    else if (!ignored(abs, false)) add(abs, true);
  }
  return { targets, errors };
}

/**
 * A small glob matcher for `ignore` patterns (gitignore-like): `*` and `?` within a component,
 * `**` across components, a pattern without `/` matches a base name at any depth, a trailing `/`
 * or a directory match ignores everything below.
 */
export function globMatcher(patterns: string[]): (rel: string) => boolean {
  const res = patterns.filter((p) => p.trim() !== '' && !p.startsWith('#')).map((p) => {
    let pat = p.trim().replace(/\/+$/, '');
    const anchored = pat.includes('/');
    pat = pat.replace(/^\.\//, '').replace(/^\//, '');
    let re = '';
    for (let i = 0; i < pat.length; i++) {
      const c = pat[i]!;
      if (c === '*' && pat[i + 1] === '*') {
        if (pat[i + 2] === '/') {
          re += '(?:.*/)?';
          i += 2;
        } else {
          re += '.*';
          i += 1;
        }
      } else if (c === '*') re += '[^/]*';
      else if (c === '?') re += '[^/]';
      else re += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
    }
    return new RegExp(`${anchored ? '^' : '(?:^|/)'}${re}(?:/.*)?$`);
  });
  return (rel) => res.some((r) => r.test(rel));
}
