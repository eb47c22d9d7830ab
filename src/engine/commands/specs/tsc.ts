import { type Example, command } from '../spec.js';
import { project } from '../kinds.js';

export default command({
  names: ['tsc'],
  build: () => project(['--outDir', '-p', '--project'], { short: 'p', long: ['outDir', 'project', 'outFile'] }, []),
});

export const examples: readonly Example[] = [
  ['tsc --outDir ../../out', 'ask'],
  ['tsc --noEmit', 'allow'],
];
