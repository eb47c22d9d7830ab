import { type Example, command } from '../spec.js';
import { code } from '../kinds.js';

export default command({
  names: ['node'],
  build: () => code({ grammar: { short: 'epr', long: ['eval', 'print', 'require', 'import', 'loader'] }, codeOptions: ['-e', '-p', '--eval', '--print'] , argvOperands: true }),
});

export const examples: readonly Example[] = [
  ['node -e \'require("fs").writeFileSync("/home/dev/repo/x", "")\'', 'deny'],
  ['node -e \'console.log(1)\'', 'allow'],
];
