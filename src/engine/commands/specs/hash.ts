import { type Example, command } from '../spec.js';

export default command({
  names: ['hash'],
  build: () => undefined,
  /** `hash -p PATH NAME`: NAME runs PATH (src/engine/interpret/simple.ts reads the table). */
  shell(inv) {
    const args = inv.args;
    if (args.some((a) => a.value === '-r')) {
      for (const k of [...inv.st.extras.hashed.keys()]) inv.st.extras.hashed.delete(k);
      return true;
    }
    const p = args.findIndex((a) => a.value === '-p');
    if (p >= 0 && args[p + 1]) {
      for (const n of args.slice(p + 2)) if (!n.value.startsWith('-')) inv.st.extras.hashed.set(n.value, args[p + 1]!.value);
      return true;
    }
    if (args.some((a) => a.value === '-d')) for (const n of args) if (!n.value.startsWith('-')) inv.st.extras.hashed.delete(n.value);
    return true;
  },
  shellPrints: true,
});

export const examples: readonly Example[] = [
  ['hash -r', 'allow'],
  ['hash -p /bin/rm ls; ls -rf ../../x', 'deny'],
];
