// npm's `install`: builds bashguard's tree export (native/tree-export.c, binding.gyp) with
// node-gyp. It never fails the install: without the addon the parser layer uses tree-sitter's own
// binding, which gives the same trees, only slower, and
// `bashguard doctor` says which one is in use and why.
//
// BASHGUARD_NATIVE_BUILD=0 skips the build.
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const say = (msg) => process.stderr.write(`bashguard: ${msg}\n`);
const fallback = "the parser will use tree-sitter's own binding (same results, slower)";

function nodeGyp() {
  // npm gives its scripts the node-gyp it bundles.
  const fromNpm = process.env.npm_config_node_gyp;
  if (fromNpm && existsSync(fromNpm)) return fromNpm;
  try {
    return createRequire(join(root, 'package.json')).resolve('node-gyp/bin/node-gyp.js');
  } catch {
    // next guess: the npm next to this node
  }
  const beside = join(dirname(process.execPath), '..', 'lib', 'node_modules', 'npm', 'node_modules', 'node-gyp', 'bin', 'node-gyp.js');
  return existsSync(beside) ? beside : null;
}

function main() {
  if (process.env.BASHGUARD_NATIVE_BUILD === '0') {
    say(`BASHGUARD_NATIVE_BUILD=0: tree export not built; ${fallback}`);
    return;
  }
  const gyp = nodeGyp();
  if (!gyp) {
    say(`node-gyp not found: tree export not built; ${fallback}`);
    return;
  }
  const args = [gyp, 'rebuild'];
  // Node's own headers when this Node has them (no download): N-API is stable across Node
  // versions, so the addon built here loads in any later one.
  const prefix = join(dirname(process.execPath), '..');
  if (!process.env.npm_config_nodedir && existsSync(join(prefix, 'include', 'node', 'node_api.h'))) args.push(`--nodedir=${prefix}`);
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 300_000 });
  if (r.status === 0) {
    say('built the tree export (build/Release/bashguard_tree.node)');
    return;
  }
  const why = r.error ? r.error.message : `node-gyp exited with ${r.status ?? r.signal}`;
  const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.split('\n').filter((l) => /error|ERR!/i.test(l)).slice(0, 3);
  say(`could not build the tree export (${why}); ${fallback}`);
  for (const l of tail) say(`  ${l.trim()}`);
  // A half-made build must not be picked up.
  rmSync(join(root, 'build', 'Release', 'bashguard_tree.node'), { force: true });
}

main();
