#!/usr/bin/env node
// The import-direction check (docs/architecture.md): reads every import of src/ (type imports,
// re-exports, dynamic import() and require() included), gives each file a unit (its folder) and a
// layer, and fails on
//   - an import cycle between files, or between units (folders);
//   - an import against the pipeline's direction (the engine never imports the policy, a layer,
//     the runtime or a front end; the policy never imports a layer or a front end; ...);
//   - a front end importing another front end (they share only the front ends' own core, src/frontends/*.ts);
//   - a file outside src/runtime/ importing any runtime file but its face, src/runtime/index.ts, or
//     a speed helper the runtime owns (RUNTIME_OWNED);
//   - a file in a folder the table below does not place (say where a new folder belongs);
//   - a folder the table names that src/ does not have (the table describes the tree as it is);
//   - a comment in src/, native/, scripts/ or bench/ naming a src/ path that does not exist;
//   - a file of src/ over 800 lines or a function over 120 (scripts/check-sizes.mjs).
//
//   node scripts/check-layers.mjs            # exit 0 when clean, 1 with one line per violation
//   node scripts/check-layers.mjs --graph    # also the unit-to-unit imports
//   node scripts/check-layers.mjs --root DIR # check another tree (the test plants violations in a copy)
//
// A unit is a folder under src/ (src/engine/parse) or under a group folder (src/engine/parse); files
// directly in src/ or in a group folder form a unit of their own, named after the file or the group.
import ts from 'typescript';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkSizes } from './check-sizes.mjs';

/** Layers, lowest first; `may` = the layers below it that it may import (its own always). */
const LAYERS = {
  base: { may: [] },
  engine: { may: ['base'] },
  // The runtime (the speed machinery: code caches, native file I/O, the small fact cache) sits
  // beside the engine: the policy and the layers may use its face, the engine never.
  runtime: { may: ['base'] },
  policy: { may: ['base', 'engine', 'runtime'] },
  layers: { may: ['base', 'engine', 'policy', 'runtime'] },
  // The front ends' shared core (src/frontends/*.ts: the I/O contract, the tool-call decision).
  'frontend core': { may: ['base', 'engine', 'policy', 'layers', 'runtime'] },
  // Front ends: peers, which never import one another.
  frontend: { may: ['base', 'engine', 'policy', 'layers', 'runtime', 'frontend core'], peers: false },
  // The programs and the package's face: they put the front ends together.
  entry: { may: ['base', 'engine', 'policy', 'layers', 'runtime', 'frontend core', 'frontend'] },
};

/** Unit name -> layer. Group folders (engine/, policy/, ...) name their own root unit. */
const UNITS = {
  util: 'base',
  engine: 'engine', parse: 'engine', syntax: 'engine', effects: 'engine', shell: 'engine', interpret: 'engine', commands: 'engine',
  policy: 'policy', rules: 'policy', layout: 'policy', workspace: 'policy', scenario: 'policy',
  layers: 'layers', env: 'layers', sandbox: 'layers', audit: 'layers', prompt: 'layers', log: 'layers',
  runtime: 'runtime', startup: 'runtime',
  frontends: 'frontend core',
  hook: 'frontend', lint: 'frontend', library: 'frontend', corpus: 'frontend',
  cli: 'entry', 'api.ts': 'entry',
};
/** The one runtime file the rest of src/ imports. */
const RUNTIME_FACE = 'runtime/index.ts';
/**
 * Speed helpers outside src/runtime/ that only the runtime imports (the rest reach them through
 * its face). The addon's file I/O stays in src/util/ while native/file-io.c, whose comment names
 * it, is recorded in the shipped prebuilt binary's SOURCES (a move waits for the next prebuild).
 */
const RUNTIME_OWNED = new Set(['util/native-io.ts']);
const GROUPS = new Set(['engine', 'policy', 'frontends', 'layers', 'runtime']);

/**
 * Known edges that break a rule, each with its reason; the check reports when one is no longer
 * found, so the list only shrinks. Keys are `from-unit -> to-unit`.
 */
const ALLOWED = {};

const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

export function listSources(srcDir) {
  const out = [];
  const walk = (d) => {
    for (const e of readdirSync(d).sort()) {
      const p = join(d, e);
      if (statSync(p).isDirectory()) walk(p);
      else if (SOURCE.test(e) && !e.endsWith('.d.ts')) out.push(p);
    }
  };
  walk(srcDir);
  return out;
}

/** The unit of a file given its path relative to src/ with '/' separators. */
export function unitOf(rel) {
  const parts = rel.split('/');
  if (parts.length === 1) return parts[0];
  if (GROUPS.has(parts[0])) return parts.length === 2 ? parts[0] : parts[1];
  return parts[0];
}

/** Relative imports of one file, resolved to files of the tree (paths relative to src/). */
function importsOf(file, srcDir, known) {
  const text = readFileSync(file, 'utf8');
  const info = ts.preProcessFile(text, true, true);
  const out = [];
  for (const imp of info.importedFiles) {
    const spec = imp.fileName;
    if (!spec.startsWith('.')) continue;
    const abs = resolve(dirname(file), spec);
    const candidates = [abs, abs.replace(/\.js$/, '.ts'), abs.replace(/\.mjs$/, '.mts'), abs.replace(/\.cjs$/, '.cts'), abs + '.ts', join(abs, 'index.ts')];
    const hit = candidates.find((c) => known.has(c));
    if (hit) out.push(relative(srcDir, hit).split(sep).join('/'));
    else if (!existsSync(abs)) out.push({ missing: spec });
  }
  return out;
}

/** Strongly connected components with more than one node (Tarjan). */
function cycles(nodes, edges) {
  let index = 0;
  const idx = new Map(), low = new Map(), onStack = new Set(), stack = [], out = [];
  const visit = (v) => {
    idx.set(v, index); low.set(v, index); index++;
    stack.push(v); onStack.add(v);
    for (const w of edges.get(v) ?? []) {
      if (!idx.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), idx.get(w)));
    }
    if (low.get(v) === idx.get(v)) {
      const comp = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); comp.push(w); } while (w !== v);
      if (comp.length > 1 || (edges.get(v) ?? new Set()).has(v)) out.push(comp.sort());
    }
  };
  for (const v of nodes) if (!idx.has(v)) visit(v);
  return out;
}

/** For each node of a component, its shortest way back to itself; each cycle once. */
function shortestCycles(comp, edges) {
  const inside = new Set(comp);
  const seen = new Set();
  const out = [];
  for (const start of comp) {
    const prev = new Map([[start, null]]);
    const queue = [start];
    let found = null;
    while (queue.length && !found) {
      const v = queue.shift();
      for (const w of edges.get(v) ?? []) {
        if (!inside.has(w)) continue;
        if (w === start) { found = v; break; }
        if (!prev.has(w)) { prev.set(w, v); queue.push(w); }
      }
    }
    if (found === null) continue;
    const path = [];
    for (let v = found; v !== null; v = prev.get(v)) path.unshift(v);
    const key = [...path].sort().join('|');
    if (seen.has(key)) continue;
    seen.add(key);
    out.push([...path, start]);
  }
  return out;
}

const COMMENTED = /\.(ts|mts|cts|js|mjs|cjs|c|h|cc)$/;
/** `//` line comments and `/* ... *\/` blocks (enough for the names they mention; strings may hide a `//`). */
const COMMENT = /\/\*[\s\S]*?\*\/|(?<![:'"`\\])\/\/[^\n]*/g;
/** A src/ path in prose: not a glob, not part of a longer path (another project's src/ is written without it). */
const SRC_PATH = /(?<![\w./-])src\/[\w./-]*\w/g;

/** Comments naming a src/ path that is not there; `.js` names the `.ts` it is built from. */
export function staleComments(root) {
  const out = [];
  const exists = (p) => existsSync(join(root, p)) || (/\.(m|c)?js$/.test(p) && existsSync(join(root, p.replace(/js$/, 'ts'))));
  for (const dir of ['src', 'native', 'scripts', 'bench']) {
    if (!existsSync(join(root, dir))) continue;
    const walk = (d) => {
      for (const e of readdirSync(d).sort()) {
        const p = join(d, e);
        if (statSync(p).isDirectory()) { if (e !== 'node_modules' && e !== 'results') walk(p); continue; }
        if (!COMMENTED.test(e) || /\.generated\./.test(e)) continue;
        const text = readFileSync(p, 'utf8');
        for (const m of text.matchAll(COMMENT)) {
          for (const name of m[0].matchAll(SRC_PATH)) {
            const path = name[0].replace(/\.$/, '');
            if (exists(path)) continue;
            const line = text.slice(0, m.index + name.index).split('\n').length;
            out.push(`${relative(root, p).split(sep).join('/')}:${line}: a comment names ${path}, which is not there`);
          }
        }
      }
    };
    walk(join(root, dir));
  }
  return out;
}

/** Checks the tree at `root`; returns { problems, notes, unitEdges }. */
export function checkLayers(root) {
  const srcDir = join(root, 'src');
  const files = listSources(srcDir);
  const known = new Set(files);
  const problems = [];
  const notes = [];
  const fileEdges = new Map();
  const unitEdges = new Map(); // 'a -> b' -> [file -> file]
  const layerOf = (unit) => UNITS[unit];
  for (const file of files) {
    const rel = relative(srcDir, file).split(sep).join('/');
    const from = unitOf(rel);
    if (!layerOf(from)) problems.push(`src/${rel}: its folder '${from}' is in no layer (add it to UNITS in scripts/check-layers.mjs)`);
    const targets = new Set();
    for (const t of importsOf(file, srcDir, known)) {
      if (typeof t !== 'string') {
        problems.push(`src/${rel}: imports ${t.missing}, which is not there`);
        continue;
      }
      targets.add(t);
      if ((t.startsWith('runtime/') || RUNTIME_OWNED.has(t)) && t !== RUNTIME_FACE && !rel.startsWith('runtime/')) problems.push(`src/${rel}: imports src/${t}; outside src/runtime/ only its face src/${RUNTIME_FACE} is imported`);
      const to = unitOf(t);
      if (to !== from) {
        const key = `${from} -> ${to}`;
        if (!unitEdges.has(key)) unitEdges.set(key, []);
        unitEdges.get(key).push(`src/${rel} -> src/${t}`);
      }
    }
    fileEdges.set(rel, targets);
  }

  const used = new Set();
  for (const [key, via] of unitEdges) {
    const [from, to] = key.split(' -> ');
    const a = layerOf(from), b = layerOf(to);
    if (!a || !b) continue;
    let why = null;
    if (a === b) {
      if (LAYERS[a].peers === false) why = `front ends do not import one another (share code through src/frontends/)`;
    } else if (!LAYERS[a].may.includes(b)) why = `${a} (${from}) must not import ${b} (${to})`;
    if (why && ALLOWED[key]) {
      used.add(key);
      continue;
    }
    if (why) problems.push(`${key}: ${why}: ${via.join(', ')}`);
  }

  for (const comp of cycles([...fileEdges.keys()], fileEdges)) {
    // A cycle across units whose every crossing edge is allowed is the allowed unit cycle itself.
    const crossing = comp.flatMap((f) => [...fileEdges.get(f)].filter((t) => comp.includes(t) && unitOf(t) !== unitOf(f)).map((t) => `${unitOf(f)} -> ${unitOf(t)}`));
    if (crossing.length > 0 && crossing.every((k) => ALLOWED[k])) {
      for (const k of crossing) used.add(k);
      continue;
    }
    problems.push(`file cycle: ${shortestCycles(comp, fileEdges).map((c) => c.map((f) => 'src/' + f).join(' -> ')).join('; ')}`);
  }
  const unitGraph = new Map();
  for (const key of unitEdges.keys()) {
    if (ALLOWED[key]) continue;
    const [from, to] = key.split(' -> ');
    if (!unitGraph.has(from)) unitGraph.set(from, new Set());
    unitGraph.get(from).add(to);
  }
  for (const comp of cycles([...unitGraph.keys()], unitGraph)) {
    for (const c of shortestCycles(comp, unitGraph)) {
      const hops = c.slice(1).map((to, i) => `${c[i]} -> ${to}`);
      problems.push(`folder cycle: ${c.join(' -> ')} (${hops.map((h) => unitEdges.get(h)[0]).join('; ')})`);
    }
  }
  const placed = new Set(files.map((f) => unitOf(relative(srcDir, f).split(sep).join('/'))));
  for (const unit of Object.keys(UNITS)) if (!placed.has(unit) && !GROUPS.has(unit)) problems.push(`UNITS names '${unit}', which no file of src/ is in (remove it, or it names a folder that moved)`);
  for (const g of GROUPS) if (!existsSync(join(srcDir, g))) problems.push(`GROUPS names '${g}', which is no folder of src/`);
  problems.push(...staleComments(root));
  const sizes = checkSizes(root);
  problems.push(...sizes.problems);
  notes.push(...sizes.notes);
  for (const key of Object.keys(ALLOWED)) if (!used.has(key) && !unitEdges.has(key)) notes.push(`allowed edge ${key} is no longer found: remove it from ALLOWED`);
  return { problems, notes, unitEdges };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? resolve(args[at + 1]) : join(dirname(fileURLToPath(import.meta.url)), '..');
  const { problems, notes, unitEdges } = checkLayers(root);
  if (args.includes('--graph')) for (const [k, v] of [...unitEdges].sort()) console.log(`${k}  (${v.length})`);
  for (const n of notes) console.log(`check-layers: note: ${n}`);
  for (const p of problems) console.error(`check-layers: ${p}`);
  if (problems.length) {
    console.error(`check-layers: ${problems.length} violation(s); the layers are described in docs/architecture.md`);
    process.exit(1);
  }
  console.log('check-layers: ok');
}
