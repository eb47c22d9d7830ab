// Types of scripts/canary-hook.mjs for the tests that import it.
import type { HookCase } from './canary-lib.mjs';
export function hookCanaries(cases: HookCase[], opts?: { checkout?: string }): Promise<{ corpus: string; cmd: string; decision: 'allow' | 'ask' | 'deny' | 'error'; first: string }[]>;
