import { type Example, command } from '../spec.js';

export default command({
  names: ['unalias'],
  build: () => undefined,
  shell(inv) {
    if (inv.args.some((a) => a.value === '-a')) for (const k of [...inv.st.extras.aliases.keys()]) inv.st.extras.aliases.delete(k);
    else for (const a of inv.args) inv.st.extras.aliases.delete(a.value);
    return true;
  },
});

export const examples: readonly Example[] = [
  // `t` is no alias any more: an unknown command given a path outside.
  ['shopt -s expand_aliases; alias t="cat"\nunalias t\nt ../../README.md', 'ask'],
];
