import { type Example, command } from '../spec.js';

export default command({
  names: ['ffmpeg'],
  build: () => ({ category: 'writes', run(inv, interp) { const last = inv.args[inv.args.length - 1]; const prev = inv.args[inv.args.length - 2]?.value; if (last && !last.value.startsWith('-') && prev !== '-i' && inv.args.some((a) => a.value === '-i') && last.value !== '-' && !last.value.startsWith('pipe:')) interp.write('write', last, inv.st, inv.range, 'ffmpeg'); } }),
});

export const examples: readonly Example[] = [
  ['ffmpeg -i x.mp4 ../../x.mp3', 'deny'],
  ['ffmpeg -i ../../x.mp4 x.mp3', 'allow'],
];
