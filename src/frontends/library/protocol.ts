/** Messages between the guard (src/frontends/library/guard.ts) and its analysis process (child.ts). */
import type { BackendChoice } from '../../engine/parse/index.js';
import type { HookAnswer } from '../tool-call.js';
import type { Env } from '../../policy/workspace/config.js';

export type ToChild =
  | { type: 'init'; dir: string; env: Env; backend: BackendChoice }
  | { type: 'check'; id: number; command: string; cwd: string };

export type FromChild =
  | { type: 'ready'; backend: 'native' | 'wasm' }
  | { type: 'init-error'; message: string }
  | { type: 'result'; id: number; answer: HookAnswer | null; ms: number }
  | { type: 'error'; id: number; message: string };
