/**
 * The guard's analysis process (forked by src/frontends/library/guard.ts): it opens the same workspace as
 * the guard (same directory, same explicit env, so the same layout and trusted config) and
 * analyzes Bash commands one at a time. It exists so that a parse that runs away inside native
 * tree-sitter (docs/limits.md) can be stopped with SIGKILL without touching the caller's process.
 */
import { getParser, type BashParser } from '../../engine/parse/index.js';
import { openWorkspace, type Workspace } from '../../policy/workspace/index.js';
import { judgeBash } from '../decide.js';
import type { FromChild, ToChild } from './protocol.js';

let ws: Workspace | null = null;
let parser: BashParser | null = null;

const send = (m: FromChild): void => void process.send!(m);

process.on('message', (m: ToChild) => {
  if (m.type === 'init') {
    getParser(m.backend).then(
      (p) => {
        try {
          ws = openWorkspace(m.dir, { env: m.env });
          parser = p;
          send({ type: 'ready', backend: p.backend });
        } catch (err) {
          send({ type: 'init-error', message: (err as Error).message });
        }
      },
      (err: Error) => send({ type: 'init-error', message: err.message }),
    );
    return;
  }
  const t0 = performance.now();
  judgeBash(ws!, parser!, m.command, m.cwd, ws!.env).then(
    (answer) => send({ type: 'result', id: m.id, answer, ms: performance.now() - t0 }),
    (err: Error) => send({ type: 'error', id: m.id, message: err.message.split('\n')[0]! }),
  );
});
process.on('disconnect', () => process.exit(0));
