/**
 * What some commands print, so `$(pwd)`, `$(mktemp -d)`, `$(dirname "$0")` and friends give a
 * usable value inside paths. null means "prints something we cannot know".
 */
import { HOLE } from '../effects/types.js';
import type { CommandContext, Invocation } from './context.js';
import { basenameOf, dirnameOf, joinPath, normalizeLogical } from '../interpret/paths.js';
import { parseArgs } from './args.js';

/** dirname of a value that may hold unknown stretches: unknown text may contain more `/`. */
function dirnameOfValue(v: string): string {
  const slash = v.lastIndexOf('/');
  if (!v.includes(HOLE)) return dirnameOf(v);
  if (slash < 0) return HOLE;
  const base = v.slice(slash + 1);
  if (base.includes(HOLE)) return (slash === 0 ? '/' : v.slice(0, slash)) + HOLE;
  return dirnameOf(v);
}

function tmpdir(inv: Invocation): string {
  const v = inv.env.get('TMPDIR')?.value ?? inv.st.vars.get('TMPDIR')?.value;
  return v?.replace(/\/+$/, '') || '/tmp';
}

export function outputOf(inv: Invocation, interp: CommandContext): string | null {
  const vals = inv.args.map((a) => a.value);
  switch (inv.name) {
    case 'pwd':
      return (interp.pwd(inv.st) ?? HOLE) + '\n';
    case 'echo': {
      let i = 0;
      let newline = true;
      while (i < vals.length && /^-[neE]+$/.test(vals[i]!)) {
        if (vals[i]!.includes('n')) newline = false;
        i++;
      }
      return vals.slice(i).join(' ') + (newline ? '\n' : '');
    }
    case 'printf': {
      if (vals[0] === '-v') return '';
      const fmt = vals[0] ?? '';
      if (fmt === '%s' || fmt === '%s\n') return vals.slice(1).join('') + (fmt.endsWith('\n') ? '\n' : '');
      if (!fmt.includes('%') && !fmt.includes('\\')) return fmt;
      return HOLE;
    }
    case 'dirname':
      return vals.filter((v) => !v.startsWith('-')).map(dirnameOfValue).join('\n') + '\n';
    case 'basename': {
      const ops = vals.filter((v) => !v.startsWith('-'));
      if (ops.length === 0) return null;
      let b = basenameOf(ops[0]!);
      if (ops[1] && b.endsWith(ops[1])) b = b.slice(0, -ops[1].length);
      return b + '\n';
    }
    case 'realpath':
    case 'readlink': {
      if (inv.name === 'readlink' && !vals.some((v) => /^-[a-z]*[fem]/.test(v) || v.startsWith('--canonicalize'))) return null;
      const ops = vals.filter((v) => !v.startsWith('-'));
      if (ops.length !== 1) return null;
      const p = ops[0]!;
      const cwd = interp.pwd(inv.st);
      if (!p.startsWith('/') && cwd === null) return null;
      const abs = normalizeLogical(joinPath(cwd ?? '/', p));
      return (interp.ctx.host?.realpath?.(abs) ?? abs) + '\n';
    }
    case 'mktemp': {
      const p = parseArgs(inv.args, { short: 'p', long: ['suffix'] });
      const dirOpt = p.options.find((o) => o.name === '-p' || o.name === '--tmpdir');
      const template = p.operands[0]?.value;
      const dir = dirOpt?.value?.value || (p.options.some((o) => o.name === '-t') || !template || dirOpt ? tmpdir(inv) : null);
      if (template) {
        const name = template.replace(/X{3,}$/, HOLE);
        if (template.startsWith('/')) return name + '\n';
        if (dir) return joinPath(dir, name) + '\n';
        const cwd = interp.pwd(inv.st);
        return cwd ? joinPath(cwd, name) + '\n' : null;
      }
      return `${dir ?? tmpdir(inv)}/tmp.${HOLE}\n`;
    }
    case 'git': {
      // `git rev-parse --show-toplevel`: the checkout root of the cwd, when the caller knows it.
      if (vals.includes('rev-parse') && vals.includes('--show-toplevel') && !vals.includes('-C')) {
        const cwd = interp.pwd(inv.st);
        const top = cwd ? interp.ctx.gitToplevel?.(cwd) ?? null : null;
        return top ? top + '\n' : null;
      }
      return null;
    }
    case 'whoami':
      return inv.st.vars.get('USER')?.value ? inv.st.vars.get('USER')!.value + '\n' : null;
    case 'cat':
      // `cat <<EOF | bash`: cat passes its stdin through.
      if ((vals.length === 0 || (vals.length === 1 && vals[0] === '-')) && inv.stdin.kind === 'text') return inv.stdin.text;
      return null;
    case 'true':
    case 'false':
    case ':':
      return '';
    default:
      return null;
  }
}

/**
 * Commands that print a list of paths under a directory we know (`find DIR ...`, `ls`,
 * `git ls-files`): the directory prefix a pipeline hands on (`... | xargs rm`), or null.
 * Works on the words as written, before expansion.
 */
export function pathListPrefix(words: string[], cwd: string): string | null {
  const [name, first] = words;
  if (name === 'find') {
    if (!first || first.startsWith('-') || /[$`*?]/.test(first)) return null;
    const base = first.startsWith('/') ? first : joinPath(cwd, first);
    return base.replace(/\/$/, '') + '/';
  }
  if (name === 'ls' || (name === 'git' && (first === 'ls-files' || first === 'diff' || first === 'grep'))) {
    return cwd.replace(/\/$/, '') + '/';
  }
  return null;
}
