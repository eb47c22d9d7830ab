import { runGit } from '../git.js';
import { type Example, command } from '../spec.js';
import { cwdPrefix, printsUnderCwd } from '../path-list.js';

export default command({
  names: ['git'],
  build: () => ({ category: 'git', run: runGit }),
  pathList: ([sub, ...rest], cwd) => ((sub === 'ls-files' || sub === 'diff' || sub === 'grep') && printsUnderCwd(rest) && !rest.includes('--no-index') ? cwdPrefix(cwd) : null),
  output(inv, interp) {
    const vals = inv.args.map((a) => a.value);
    if (vals.includes('rev-parse') && vals.includes('--show-toplevel') && !vals.includes('-C')) {
      const cwd = interp.pwd(inv.st);
      const top = cwd ? interp.ctx.gitToplevel?.(cwd) ?? null : null;
      return top ? top + '\n' : null;
    }
    return null;
  },
});

export const examples: readonly Example[] = [
  ['cd /tmp && git ls-files | xargs rm', 'allow'],
  ['cd /tmp && git log | xargs rm', 'ask'],
  ['git commit -qm x', 'allow'],
  ['git -C ../.. commit -qm x', 'deny'],
  ['git update-ref refs/heads/b2 HEAD~1', 'deny'],
  ['git update-ref refs/heads/b1 HEAD~1', 'allow'],
  ['git push -q . HEAD:b2', 'deny'],
  ['git fetch -q . HEAD:main', 'deny'],
  ['git branch -f topic', 'ask'],
  ['git gc', 'ask'],
  ['git maintenance run', 'ask'],
  ['git replace HEAD HEAD~1', 'ask'],
  ['git pack-refs --all', 'ask'],
  ['git reflog expire --all', 'ask'],
  ['git tag v1', 'ask'],
  ['git notes add -m x', 'ask'],
  ['git frobnicate', 'ask'],
  ['git status', 'allow'],
  ['git init -q --separate-git-dir=/tmp/g', 'deny'],
  ['git init -q /tmp/newrepo', 'allow'],
  ['git checkout HEAD~1 -- .', 'ask'],
  ['git checkout HEAD~1 -- src', 'allow'],
  ['git stash pop', 'ask'],
  ['git stash list', 'allow'],
  ['git log --frob-file=../../x', 'ask'],
  ['git log --frob-file=x', 'allow'],
];
