/**
 * Commands that load heavier modules (lint, corpus): registered here and imported lazily by
 * their actions, so `check`/`explain` do not pay for them.
 */
import type { Command } from 'commander';
import type { IO } from './io.js';

export function register(_program: Command, _io: IO, _setExit: (code: number) => void): void {
  // lint and corpus register here.
}
