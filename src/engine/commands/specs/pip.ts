import { type Example, command } from '../spec.js';
import { project, installer, withEnvWrites } from '../kinds.js';

export default command({
  names: ['pip', 'pip3'],
  build: () => withEnvWrites('pip', installer(project(['--target', '-t', '--prefix', '--root'], { short: 'trec', long: ['target', 'prefix', 'root', 'requirement', 'constraint', 'editable'] }, ['list', 'show', 'freeze', 'search', 'help', 'check', 'config', 'debug'], ['-r', '--requirement', '-c', '--constraint', '--index-url', '--extra-index-url', '--find-links', '--python-version', '--platform']), ['--target', '-t', '--prefix', '--root', '-d', '--dest', '-w', '--wheel-dir'], { short: 'trecdw', long: ['target', 'prefix', 'root', 'requirement', 'constraint', 'editable', 'dest', 'wheel-dir', 'index-url', 'extra-index-url', 'find-links', 'python-version', 'platform'] }, ['install', 'download', 'wheel'])),
});

export const examples: readonly Example[] = [
  ['pip install --target ../../lib requests', 'deny'],
  ['pip install -r requirements.txt', 'allow'],
];
