#!/usr/bin/env node
// Stand-in PreToolUse hook used by the e2e harness until bin/bashguard.js exists.
//
// Usage (as registered in <worktree>/.claude/settings.json):
//   node /abs/test/e2e/stub-hook.mjs <absolute path of the main checkout>
//
// Reads the PreToolUse payload (JSON) on stdin and denies any Bash command whose
// text contains the main checkout's absolute path followed by "/" or the end of a
// word (so `<main>/.builders/b1/...` — the worktree itself — is NOT denied). It is
// deliberately naive: `cd ../.. && ...` or a Write to <main>/x are let through.
// Every payload is appended to $BASHGUARD_STUB_LOG (if set) for debugging.
import { appendFileSync, readFileSync } from 'node:fs';

const main = process.argv[2];
const raw = readFileSync(0, 'utf8');
if (process.env.BASHGUARD_STUB_LOG) appendFileSync(process.env.BASHGUARD_STUB_LOG, raw.trim() + '\n');

let payload;
try {
  payload = JSON.parse(raw);
} catch {
  process.exit(0); // not our business: allow
}

const command = payload?.tool_name === 'Bash' ? String(payload?.tool_input?.command ?? '') : '';
if (main && command) {
  const worktreePrefix = main + '/.builders/';
  // Remove worktree paths first, then look for the main path as a whole word.
  const stripped = command.split(worktreePrefix).join('\u0000');
  const re = new RegExp(main.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '(?=$|[/\\s\'";&|)<>])');
  if (re.test(stripped)) {
    process.stdout.write(
      JSON.stringify({
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: `stub-hook: command touches the main checkout ${main}`,
        },
      }) + '\n',
    );
  }
}
process.exit(0);
