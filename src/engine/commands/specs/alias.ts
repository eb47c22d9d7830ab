import { type Example, command } from '../spec.js';

export default command({
  names: ['alias'],
  build: () => undefined,
  shell(inv, sh) {
    for (const a of inv.args) {
      const eq = a.value.indexOf('=');
      if (eq <= 0 || a.value.startsWith('-')) continue;
      const name = a.value.slice(0, eq);
      inv.st.extras.aliases.set(name, { text: a.value.slice(eq + 1), ...sh.sourceLine(inv.range) });
    }
    return true;
  },
  shellPrints: true,
});

export const examples: readonly Example[] = [
  ['alias ll="ls -l"', 'allow'],
  ['shopt -s expand_aliases; alias t="touch ../../x"\nt', 'deny'],
];
