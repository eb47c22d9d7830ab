/** Messages between the guard (src/library/guard.ts) and its analysis process (child.ts). */
import type { BackendChoice } from '../parse/index.js';
import type { HookAnswer } from '../frontends/tool-call.js';
import type { Env } from '../workspace/config.js';

export type ToChild =
  | { type: 'init'; dir: string; env: Env; backend: BackendChoice }
  | { type: 'check'; id: number; command: string; cwd: string };

export type FromChild =
  | { type: 'ready'; backend: 'native' | 'wasm' }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; answer: HookAnswer | null; ms: number }
  | { type: 'error'; id: number; message: string };
