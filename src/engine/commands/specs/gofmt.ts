import { type Example, command } from '../spec.js';
import { formatter } from '../kinds.js';

export default command({
  names: ['gofmt'],
  build: () => formatter([], ['-w'], undefined, { values: ['-r', '-cpuprofile'], flags: ['-s', '-e', '-l', '-d'] }),
});

export const examples: readonly Example[] = [
  ['gofmt -w ../../x.go', 'deny'],
  ['gofmt ../../x.go', 'allow'],
];
