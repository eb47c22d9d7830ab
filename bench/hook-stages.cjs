#!/usr/bin/env node
// Stage timings of one hook process on the built code, mirroring dist/hook-start.cjs step by step
// (bench/README.md, "Where the hook's milliseconds go"). Run it like the hook, in a minimal
// environment, after one real hook run has written the code cache:
//   env -i PATH=$PATH HOME=$HOME node bench/hook-stages.cjs < event.json 2>> stages.txt
// Prints to stderr one line of milliseconds: node boot (process start to first line), builtins,
// read bundle, read + check cache, decode, compile (deserialize), bundle top level, main (sync
// part), the hook's work (stdin, workspace, parser, analysis, answer), exit.
'use strict';
const u = () => process.uptime() * 1000;
const t = [u()];
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { isAscii } = require('node:buffer');
const dist = path.join(__dirname, '..', 'dist');
process.argv = [process.argv[0], path.join(dist, 'hook-start.cjs'), 'hook'];
const bundle = path.join(dist, 'hook.cjs');
const key = /cacheFileName\("([0-9a-f]+)"\)/.exec(fs.readFileSync(path.join(dist, 'hook-start.cjs'), 'latin1'))[1];
const dir = process.env.XDG_CACHE_HOME?.startsWith('/') ? path.join(process.env.XDG_CACHE_HOME, 'bashguard') : path.join(process.env.HOME, '.cache', 'bashguard');
const file = path.join(dir, `hook-${key}-node${process.versions.node}-${process.arch}.cache`);
t.push(u());
const src = fs.readFileSync(bundle);
t.push(u());
let data;
try {
  const buf = fs.readFileSync(file);
  const sl = buf.readUInt32LE(8);
  const dl = buf.readUInt32LE(12);
  if (buf.subarray(16, 16 + sl).equals(src) && buf.subarray(16 + sl, 16 + sl + dl).equals(buf.subarray(16 + sl + dl))) data = buf.subarray(16 + sl, 16 + sl + dl);
} catch {}
t.push(u());
const text = isAscii(src) ? src.toString('latin1') : src.toString('utf8');
t.push(u());
const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) { ${text}\n})`, { filename: bundle, cachedData: data, importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER });
t.push(u());
const m = { exports: {} };
script.runInThisContext().call(m.exports, m.exports, require, m, bundle, dist);
t.push(u());
const done = m.exports.main();
t.push(u());
done.then(() => t.push(u()));
process.on('exit', () => {
  t.push(u());
  const state = data === undefined ? 'no-cache ' : script.cachedDataRejected ? 'rejected ' : '';
  fs.writeSync(2, state + t.map((x, i) => (i ? x - t[i - 1] : x).toFixed(2)).join(' ') + '\n');
});
