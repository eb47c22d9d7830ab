#!/usr/bin/env node
// Stage timings of one hook process on the built code, mirroring dist/hook-start.cjs step by step
// (docs/history/performance.md, "Where the hook's milliseconds go"). Run it like the hook, in a minimal
// environment, after one real hook run has written the code cache:
//   env -i PATH=$PATH HOME=$HOME node bench/hook-stages.cjs < event.json 2>> stages.txt
// Prints to stderr the hook's own stage line (`bashguard stages: modules=... stdin=... event=...
// workspace=... parser=... analysis=... log=... answer=...`, src/runtime/startup/marks.ts), then one line
// of milliseconds: node boot (process start to first line), builtins, read bundle, decode, read +
// check cache, compile (deserialize), bundle top level, main (sync part), the hook's work (the
// stages above), exit. Where the addon is built (the hook's own path since the fifteenth round),
// the three reading stages are instead: the addon's load, its readBundle, 0.
'use strict';
const u = () => process.uptime() * 1000;
// The hook's own stage marks (src/runtime/startup/marks.ts), printed by the hook on stderr first.
process.env.BASHGUARD_HOOK_STAGES = '1';
const t = [u()];
const fs = require('node:fs');
const path = require('node:path');
const vm = require('node:vm');
const { isAscii } = require('node:buffer');
const dist = path.join(__dirname, '..', 'dist');
process.argv = [process.argv[0], path.join(dist, 'hook-start.cjs'), 'hook'];
const bundle = path.join(dist, 'hook.cjs');
const key = /"([0-9a-f]{32})(?:-[a-z]+)?"/.exec(fs.readFileSync(path.join(dist, 'hook-start.cjs'), 'latin1'))[1];
const dir = process.env.XDG_CACHE_HOME?.startsWith('/') ? path.join(process.env.XDG_CACHE_HOME, 'bashguard') : path.join(process.env.HOME, '.cache', 'bashguard');
// The hook sets its V8 flags itself through the addon (src/runtime/startup/hook-start.ts):
// its cache is then the `-lean` file; without the addon, or with BASHGUARD_LEAN=0, the plain one.
const addonFile = path.join(dist, '..', 'build', 'Release', 'bashguard_tree.node');
const lean = process.env.BASHGUARD_LEAN !== '0' && fs.existsSync(addonFile) && Number(process.versions.v8.split('.')[0]) < 14;
const file = path.join(dir, `hook-${key}${lean ? '-lean' : ''}-node${process.versions.node}-${process.arch}.cache`);
t.push(u());
// As src/runtime/startup/code-cache.ts: where bashguard's addon is built, it is loaded first (the hook's
// parser uses the same instance later) and reads the bundle and checks the cache in C
// (native/file-io.c readBundle); otherwise the file is read between the CommonJS wrapper's two
// ends, decoded once, then the cache: header, the source copy compared chunk by chunk, the data
// read into the buffer the source came in, its second copy compared chunk by chunk.
const HEAD = '(function (exports, require, module, __filename, __dirname) { ';
const TAIL = '\n})';
const nativeRead = process.env.BASHGUARD_NATIVE_READ !== '0' && fs.existsSync(addonFile);
// The real entry loads the addon for the flags (src/runtime/startup/hook-start.ts) and for readBundle.
let addon = null;
if (nativeRead || lean) {
  addon = { exports: {} };
  process.dlopen(addon, addonFile);
  globalThis[Symbol.for('bashguard.treeAddon')] = addon.exports;
  if (lean) addon.exports.setV8Flags('--no-sparkplug --no-maglev');
}
let text;
let data;
if (nativeRead) {
  t.push(u());
  const r = addon.exports.readBundle(bundle, HEAD, TAIL, file, 'BGCC\x01\n\0\0');
  text = r[0];
  data = r[1] ?? undefined;
  t.push(u());
} else {
  const bfd = fs.openSync(bundle, 'r');
  const size = fs.fstatSync(bfd).size;
  const wrapped = Buffer.allocUnsafe(HEAD.length + size + TAIL.length);
  wrapped.write(HEAD, 0, 'latin1');
  fs.readSync(bfd, wrapped, HEAD.length, size, 0);
  wrapped.write(TAIL, HEAD.length + size, 'latin1');
  fs.closeSync(bfd);
  const src = wrapped.subarray(HEAD.length, HEAD.length + size);
  t.push(u());
  text = isAscii(src) ? wrapped.toString('latin1') : wrapped.toString('utf8');
  t.push(u());
  try {
    const fd = fs.openSync(file, 'r');
    const head = Buffer.alloc(16);
    fs.readSync(fd, head, 0, 16, 0);
    const sl = head.readUInt32LE(8);
    const dl = head.readUInt32LE(12);
    const chunk = Buffer.allocUnsafe(64 * 1024);
    const same = (pos, expected) => {
      for (let off = 0; off < expected.length; off += chunk.length) {
        const n = Math.min(chunk.length, expected.length - off);
        fs.readSync(fd, chunk, 0, n, pos + off);
        if (!chunk.subarray(0, n).equals(expected.subarray(off, off + n))) return false;
      }
      return true;
    };
    if (sl === src.length && same(16, src)) {
      const d = dl <= wrapped.length ? wrapped.subarray(0, dl) : Buffer.allocUnsafe(dl);
      fs.readSync(fd, d, 0, dl, 16 + sl);
      if (same(16 + sl + dl, d)) data = d;
    }
    fs.closeSync(fd);
  } catch {}
}
t.push(u());
const script = new vm.Script(text, { filename: bundle, cachedData: data, importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER });
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
