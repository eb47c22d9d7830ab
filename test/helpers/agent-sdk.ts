/**
 * The Claude Agent SDK's published types, for the tests that check bashguard's callback against
 * them (test/system/library/sdk-hook.test.ts). Not a devDependency: the SDK's optional dependencies carry a
 * ~360 MB Claude Code binary per platform, which `npm ci` would download for every checkout. It
 * is installed on demand, types only (`--omit=optional --ignore-scripts`: no binary), into a cache
 * outside the repository, as the real-client e2e installs its client (test/system/e2e/claude.ts):
 * `$BASHGUARD_E2E_CACHE/agent-sdk/<version>`, default `<tmpdir>/bashguard-e2e-claude/agent-sdk/<version>`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promoteStaging } from './staged-install.js';

export const AGENT_SDK = '@anthropic-ai/claude-agent-sdk';
/** The SDK version the callback is checked against (the one its types were written from). */
export const AGENT_SDK_VERSION = '0.3.330';

export function agentSdkCacheRoot(): string {
  return join(process.env.BASHGUARD_E2E_CACHE ?? join(tmpdir(), 'bashguard-e2e-claude'), 'agent-sdk');
}

const typesIn = (prefix: string): boolean => existsSync(join(prefix, 'node_modules', ...AGENT_SDK.split('/'), 'sdk.d.ts'));

/**
 * The install prefix holding the SDK (its node_modules), installing it when missing; or
 * `{ error }` saying why it could not be installed (offline, no npm).
 */
export function ensureAgentSdk(version = AGENT_SDK_VERSION): { prefix: string } | { error: string } {
  const root = agentSdkCacheRoot();
  const prefix = join(root, version);
  if (typesIn(prefix)) return { prefix };
  mkdirSync(root, { recursive: true });
  const staging = mkdtempSync(join(root, `.staging-${version}-`));
  try {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const r = spawnSync(
      npm,
      ['install', '--prefix', staging, '--no-audit', '--no-fund', '--no-save', '--omit=optional', '--ignore-scripts', '--engine-strict=false', `${AGENT_SDK}@${version}`],
      { encoding: 'utf8', timeout: 180_000, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    if (r.status !== 0 || !typesIn(staging)) {
      const why = r.error ? r.error.message : `exit ${r.status ?? r.signal}`;
      const tail = `${r.stdout ?? ''}${r.stderr ?? ''}`.trim().split('\n').slice(-2).join(' | ');
      return { error: `npm install ${AGENT_SDK}@${version} failed (${why}${tail ? `: ${tail}` : ''})` };
    }
    promoteStaging(staging, prefix, typesIn);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  return typesIn(prefix) ? { prefix } : { error: `no ${AGENT_SDK} types in ${prefix}` };
}
