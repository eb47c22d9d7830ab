import { HOLE } from '../../effects/types.js';
import { optionValues, parseArgs } from '../args.js';
import { type Example, type CommandSpec, command } from '../spec.js';

const CURL_SHORT = 'AbcCdDeEFHKmoPQrTuUwxXyYzt';

const CURL_LONG = ['output', 'dump-header', 'cookie-jar', 'trace', 'trace-ascii', 'libcurl', 'etag-save', 'stderr', 'output-dir', 'header', 'data', 'data-raw', 'data-binary', 'data-urlencode', 'request', 'user', 'user-agent', 'referer', 'form', 'config', 'max-time', 'connect-timeout', 'proxy', 'cookie', 'upload-file', 'write-out', 'range', 'retry', 'cacert', 'cert', 'key', 'resolve', 'url'];

const curl: CommandSpec = {
  category: 'writes',
  run(inv, interp) {
    const p = parseArgs(inv.args, { short: CURL_SHORT, long: CURL_LONG });
    const outDir = optionValues(p, '--output-dir')[0];
    const base = outDir ? interp.resolveCd(inv.st, outDir, inv.range, false) : undefined;
    for (const o of p.options) {
      if (!o.value) {
        if (o.name === '-O' || o.name === '--remote-name' || o.name === '--remote-name-all' || o.name === '-J') {
          interp.write('write', { ...o.field, value: `./${HOLE}` }, inv.st, inv.range, 'curl -O', { cwdOverride: base });
        }
        continue;
      }
      if (['-o', '--output'].includes(o.name) && o.value.value !== '-') interp.write('write', o.value, inv.st, inv.range, 'curl -o', { cwdOverride: base });
      if (['-D', '--dump-header', '-c', '--cookie-jar', '--trace', '--trace-ascii', '--libcurl', '--etag-save', '--stderr'].includes(o.name) && o.value.value !== '-') {
        interp.write('write', o.value, inv.st, inv.range, `curl ${o.name}`);
      }
    }
  },
};

export default command({
  names: ['curl'],
  build: () => curl,
});

export const examples: readonly Example[] = [
  ['curl -o ../../x https://example.com/x', 'deny'],
  ['curl -o x https://example.com/x', 'allow'],
  ['curl https://example.com/x', 'allow'],
];
