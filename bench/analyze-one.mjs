// Growth memory probe: a fresh process that analyzes one command (read from a file), for
// bench/run.mjs to take its peak RSS. Usage: node bench/analyze-one.mjs FILE CWD
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './lib.mjs';

const [file, cwd] = process.argv.slice(2);
const api = await import(pathToFileURL(join(ROOT, 'dist', 'api.js')).href);
const parser = await api.getParser('native');
const r = api.analyzeWith(parser, readFileSync(file, 'utf8'), { cwd, env: { HOME: process.env.HOME, PWD: cwd }, limits: { maxInputChars: 4 << 20, timeoutMs: 600_000 } });
if (!r.script) process.exitCode = 1;
