/**
 * Codex's home moved with `$CODEX_HOME` (src/policy/workspace/workspace.ts, CODEX_HOME_CONTROL):
 * where the hook's environment names it, a write to its hooks.json, config.toml or rules/ is a
 * BG1005 finding, as it is under ~/.codex; a file beside them stays writable where its region
 * allows it, and without CODEX_HOME the same paths are plain files. In memory (the standard
 * scenario), through the same check the hook runs.
 */
import { describe, expect, it } from 'vitest';
import { getParser } from '../../../src/engine/parse/index.js';
import { memoryFs, standardEnv, standardWorkspace, WORKTREE, HOME } from '../../../src/policy/scenario/standard.js';
import { DEFAULT_CONFIG } from '../../../src/policy/config.js';

const parser = await getParser();

function judge(cmd: string, codexHome: string | undefined) {
  const env = { ...standardEnv(WORKTREE), ...(codexHome === undefined ? {} : { CODEX_HOME: codexHome }) };
  const ws = standardWorkspace(memoryFs(), WORKTREE, DEFAULT_CONFIG, env);
  const { verdict } = ws.check(parser, cmd, { cwd: WORKTREE });
  return { decision: verdict.decision, rules: verdict.findings.map((f) => f.rule) };
}

describe('$CODEX_HOME is protected like ~/.codex', () => {
  // A scratch dir (writable there) and a directory inside the worktree: both allow a plain write.
  for (const home of ['/tmp/codex-home', `${WORKTREE}/.cx`]) {
    describe(`CODEX_HOME=${home}`, () => {
      for (const [label, cmd] of [
        ['its hooks.json emptied', `echo '{}' > ${home}/hooks.json`],
        ['its config.toml rewritten', `printf 'sandbox_mode = "danger-full-access"\\n' >> ${home}/config.toml`],
        ['a rule file added', `mkdir -p ${home}/rules && echo 'prefix_rule(pattern=["rm"], decision="allow")' > ${home}/rules/default.rules`],
        ['hooks.json moved away', `mv ${home}/hooks.json /tmp/off.json`],
        ['the rules removed', `rm -rf ${home}/rules`],
      ] as const) {
        it(`${label}: BG1005 deny`, () => {
          const r = judge(cmd, home);
          expect(r.rules, cmd).toContain('BG1005');
          expect(r.decision, cmd).toBe('deny');
        });
      }

      it('a file beside them (its benign twin) stays allowed', () => {
        for (const cmd of [`echo x > ${home}/notes.txt`, `mkdir -p ${home}/sessions && echo x > ${home}/sessions/s.jsonl`, `cat ${home}/hooks.json`]) {
          expect(judge(cmd, home), cmd).toEqual({ decision: 'allow', rules: [] });
        }
      });

      it('without CODEX_HOME in the environment, the same write is a plain one', () => {
        expect(judge(`echo '{}' > ${home}/hooks.json`, undefined)).toEqual({ decision: 'allow', rules: [] });
      });
    });
  }

  it('~/.codex stays protected when CODEX_HOME points elsewhere; a relative CODEX_HOME names nothing', () => {
    expect(judge(`echo '{}' > ${HOME}/.codex/hooks.json`, '/tmp/codex-home').rules).toContain('BG1005');
    expect(judge(`echo x > ${HOME}/.codex/rules/default.rules`, undefined).rules).toContain('BG1005');
    expect(judge(`echo '{}' > /tmp/rel/hooks.json`, 'rel')).toEqual({ decision: 'allow', rules: [] });
  });
});
