import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['perl'],
  build: () => code({ grammar: { short: 'eEIMmlx0dDC', long: [] }, codeOptions: ['-e', '-E'], inPlace: { options: ['-i'] } }),
});

export const examples: readonly Example[] = [
  ['perl -pi -e \'s/a/b/\' ../../x', 'deny'],
  ['perl -pi -e \'s/a/b/\' x', 'allow'],
];
