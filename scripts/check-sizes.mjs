#!/usr/bin/env node
// The size check (docs/architecture.md, "Which way the imports run"): every file of src/ a reader
// can read whole, every function one sitting. Fails on
//   - a file of src/ over MAX_FILE_LINES lines;
//   - a function, method, constructor, accessor or arrow function over MAX_FUNCTION_LINES lines
//     (from its first line to its closing brace, its doc comment not counted);
// generated files (*.generated.ts) aside. Run by scripts/check-layers.mjs, or alone:
//
//   node scripts/check-sizes.mjs             # exit 0 when clean, 1 with one line per offender
//   node scripts/check-sizes.mjs --root DIR  # check another tree
import ts from 'typescript';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export const MAX_FILE_LINES = 800;
export const MAX_FUNCTION_LINES = 120;

/**
 * Today's offenders that another piece of work is splitting, each with its issue: the check lets
 * them pass and notes when one is no longer over (then remove it), so the list only shrinks.
 * Keys: a file by its path from the root, a function as `path#name` (`path#Class.method` for a method).
 */
export const ALLOWED_SIZES = {
};

const SOURCE = /\.(ts|mts|cts|js|mjs|cjs)$/;

function listSources(dir) {
  const out = [];
  for (const e of readdirSync(dir).sort()) {
    const p = join(dir, e);
    if (statSync(p).isDirectory()) out.push(...listSources(p));
    else if (SOURCE.test(e) && !e.endsWith('.d.ts') && !/\.generated\./.test(e)) out.push(p);
  }
  return out;
}

/** A function's name as a reader would look it up: `name`, `Class.method`, or where it stands. */
function nameOf(node, sf) {
  const own = node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name)) ? node.name.text : null;
  const cls = node.parent && (ts.isClassLike(node.parent) || ts.isObjectLiteralExpression(node.parent)) && node.parent.name ? node.parent.name.text : null;
  if (ts.isConstructorDeclaration(node)) return `${cls ?? '<class>'}.constructor`;
  if (own) return cls && !ts.isFunctionDeclaration(node) ? `${cls}.${own}` : own;
  const p = node.parent;
  if (p && (ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && ts.isIdentifier(p.name)) return p.name.text;
  return `<anonymous at line ${sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1}>`;
}

/** Functions of one file longer than `max` lines: { name, line, lines }. */
export function longFunctions(text, fileName, max = MAX_FUNCTION_LINES) {
  const sf = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const out = [];
  const visit = (node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const first = sf.getLineAndCharacterOfPosition(node.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > max) out.push({ name: nameOf(node, sf), line: first + 1, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function lineCount(text) {
  if (text === '') return 0;
  return text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
}

/** Checks src/ under `root`; returns { problems, notes }, one line each. */
export function checkSizes(root, allowed = ALLOWED_SIZES) {
  const problems = [];
  const notes = [];
  const used = new Set();
  const allows = (key) => {
    if (!(key in allowed)) return false;
    used.add(key);
    return true;
  };
  for (const file of listSources(join(root, 'src'))) {
    const rel = relative(root, file).split(sep).join('/');
    const text = readFileSync(file, 'utf8');
    const lines = lineCount(text);
    if (lines > MAX_FILE_LINES && !allows(rel)) {
      problems.push(`${rel}: ${lines} lines, over ${MAX_FILE_LINES} (split it into files a reader can read whole)`);
    }
    for (const f of longFunctions(text, file)) {
      if (allows(`${rel}#${f.name}`)) continue;
      problems.push(`${rel}:${f.line}: ${f.name} is ${f.lines} lines, over ${MAX_FUNCTION_LINES} (split it into functions read in one sitting)`);
    }
  }
  for (const [key, why] of Object.entries(allowed)) {
    if (!used.has(key)) notes.push(`${key} (${why}) is no longer over the limit: remove it from ALLOWED_SIZES in scripts/check-sizes.mjs`);
  }
  return { problems, notes };
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? resolve(args[at + 1]) : join(dirname(fileURLToPath(import.meta.url)), '..');
  const { problems, notes } = checkSizes(root);
  for (const n of notes) console.log(`check-sizes: note: ${n}`);
  for (const p of problems) console.error(`check-sizes: ${p}`);
  if (problems.length) {
    console.error(`check-sizes: ${problems.length} offender(s) over ${MAX_FILE_LINES} lines a file or ${MAX_FUNCTION_LINES} a function`);
    process.exit(1);
  }
  console.log('check-sizes: ok');
}
