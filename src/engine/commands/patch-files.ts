/**
 * The files a unified or git diff changes, so `patch` and `git apply` write those paths rather
 * than "a tree not known statically": `diff --git a/X b/Y`, `--- X` / `+++ Y`, `rename to`,
 * `copy to` (git-apply(1), patch(1)). `strip` removes leading components like -pN; null strips
 * every directory (patch without -p uses the base name).
 */
import { HOLE } from '../effects/types.js';
import type { Field } from '../shell/field.js';
import type { CommandContext, Invocation } from './context.js';
import { joinPath, normalizeLogical } from '../shell/paths.js';

export function patchTargets(text: string, strip: number | null): string[] | null {
  const out = new Set<string>();
  const add = (raw: string) => {
    let p = raw.trim().replace(/\t.*$/, '');
    if (p.startsWith('"') && p.endsWith('"')) p = p.slice(1, -1);
    if (p === '/dev/null' || p === '') return;
    const parts = p.split('/').filter((x) => x !== '');
    const kept = strip === null ? parts.slice(-1) : parts.slice(strip);
    if (kept.length === 0) return;
    out.add((strip !== null && strip === 0 && p.startsWith('/') ? '/' : '') + kept.join('/'));
  };
  let sawHeader = false;
  for (const line of text.split('\n')) {
    let m: RegExpExecArray | null;
    if ((m = /^diff --git (?:"?a\/)?(\S+) "?(?:b\/)?(\S+?)"?$/.exec(line))) {
      sawHeader = true;
      continue;
    }
    if ((m = /^\+\+\+ (.+)$/.exec(line))) {
      sawHeader = true;
      add(m[1]!);
    } else if ((m = /^--- (.+)$/.exec(line)) && !/^--- \d/.test(line)) {
      // The old name too: a patch that deletes a file (`+++ /dev/null`) writes it.
      sawHeader = true;
      add(m[1]!);
    } else if ((m = /^(?:rename|copy) (?:to|from) (.+)$/.exec(line))) {
      sawHeader = true;
      // git's rename/copy lines carry no a/ b/ prefix: strip nothing more than the prefix would.
      const p = m[1]!.trim();
      out.add(strip === null ? p.split('/').pop()! : strip > 0 ? p.split('/').slice(Math.max(0, strip - 1)).join('/') : p);
    }
  }
  return sawHeader && out.size > 0 ? [...out] : null;
}

/** A patch's text: the file given (read at hook time) or a known stdin; null when unknown. */
export function patchText(inv: Invocation, interp: CommandContext, file: Field | undefined): string | null {
  let path: string | null;
  if (!file || file.value === '-') {
    if (inv.stdin.kind === 'text') return inv.stdin.known ? inv.stdin.text : null;
    // `patch -p1 < FILE`: stdin is a file this command reads.
    const fd0 = inv.st.extras.fds.get(0);
    path = fd0 ? fd0.path : null;
  } else {
    const base = inv.st.cwd.paths;
    path = file.value.startsWith('/') ? file.value : base?.length === 1 ? joinPath(base[0]!, file.value) : null;
  }
  if (path === null || path.includes(HOLE)) return null;
  const abs = normalizeLogical(path);
  // A file this script wrote: its text when known; otherwise the file on disk at hook time.
  const written = interp.writtenFiles.get(abs);
  if (written) return written.known ? written.text : null;
  return interp.ctx.host?.readFile?.(abs) ?? null;
}
