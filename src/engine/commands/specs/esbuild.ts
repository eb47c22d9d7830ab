import { type Example, command } from '../spec.js';
import { singleDashOutputs } from '../kinds.js';

export default command({
  names: ['esbuild'],
  build: () => singleDashOutputs({ '--outfile': 'write', '--outdir': 'extract', '--metafile': 'write' }),
});

export const examples: readonly Example[] = [
  ['esbuild x.ts --outfile=../../x.js', 'deny'],
  ['esbuild x.ts --outfile=dist/x.js', 'allow'],
];
