/**
 * The few keys `doctor --agent codex` reads from Codex's config.toml (src/frontends/cli/codex-doctor.ts
 * `readTomlKeys`): top-level and table keys, dotted and quoted keys, comments, and multi-line values
 * skipped whole so that nothing inside them reads as a table or a key.
 */
import { describe, expect, it } from 'vitest';
import { readTomlKeys } from '../../../src/frontends/cli/codex-doctor.js';

describe('readTomlKeys', () => {
  it('reads strings, booleans, numbers and one-line string arrays, under their table', () => {
    const k = readTomlKeys(
      [
        'model = "gpt-5" # a comment',
        "sandbox_mode = 'workspace-write'",
        'features.hooks = false',
        '[sandbox_workspace_write]',
        'writable_roots = ["/a", "/b # not a comment"]',
        'exclude_slash_tmp = true',
        'n = 3',
        '[hooks.state."/home/u/.codex/hooks.json:pre_tool_use:0:0"]',
        'trusted_hash = "sha256:ab"',
        "[projects.'/w/x']",
        'trust_level = "trusted"',
      ].join('\n'),
    );
    expect(k.get('model')).toBe('gpt-5');
    expect(k.get('sandbox_mode')).toBe('workspace-write');
    expect(k.get('features.hooks')).toBe(false);
    expect(k.get('sandbox_workspace_write.writable_roots')).toEqual(['/a', '/b # not a comment']);
    expect(k.get('sandbox_workspace_write.exclude_slash_tmp')).toBe(true);
    expect(k.get('sandbox_workspace_write.n')).toBe(3);
    expect(k.get('hooks.state."/home/u/.codex/hooks.json:pre_tool_use:0:0".trusted_hash')).toBe('sha256:ab');
    expect(k.get('projects."/w/x".trust_level')).toBe('trusted');
  });

  it('skips multi-line strings and arrays whole: a line inside them is neither a table nor a key', () => {
    const k = readTomlKeys(
      [
        'developer_instructions = """',
        '[features]',
        'sandbox_mode = "danger-full-access"',
        '"""',
        'notify = [',
        '  "x",',
        '  "]",',
        ']',
        'sandbox_mode = "read-only"',
      ].join('\n'),
    );
    expect(k.get('sandbox_mode')).toBe('read-only');
    expect(k.has('features.sandbox_mode')).toBe(false);
    expect(k.has('notify')).toBe(false);
  });

  it('leaves out what it cannot read: a key after a table header it cannot parse, an inline table', () => {
    const k = readTomlKeys(['[bad header', 'a = 1', 'b = { x = 1 }', '[ok]', 'c = "d"'].join('\n'));
    expect(k.has('b')).toBe(false);
    expect(k.get('ok.c')).toBe('d');
  });
});
