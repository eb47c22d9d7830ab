/**
 * Which mechanism holds the line for each client on each platform (issue 51, item 6): the list
 * docs/limits.md's table is generated from (`node scripts/gen-capabilities.mjs`; a test fails when
 * the doc is stale). What follows from the code is read from it: whether the client's hook can
 * replace the command (its `canReplaceCommand`, without which no wrapper can run), and which
 * architectures the Unix-socket filter exists for. What was seen with the real client names the
 * test that saw it; everything else is marked unverified, with the reason.
 */
import { CLIENTS } from './index.js';
import { unixSocketFilter } from '../../../layers/sandbox/seccomp.js';

export type Platform = 'linux' | 'macos';

export interface Holding {
  /** The mechanism, in a few words. */
  mechanism: string;
  /** What it does about a Unix socket to a daemon outside. */
  unixSockets: string;
  /** The test that checked it on this platform, or null. */
  verifiedBy: string | null;
  /** Whether that test runs the real client (else: the wrapper run as the client runs it). */
  realClient?: boolean;
  /** Why it is not verified (when `verifiedBy` is null). */
  unverified?: string;
}

export interface ClientCapability {
  client: keyof typeof CLIENTS;
  title: string;
  /** Per platform, the mechanisms in the order bashguard uses them (`"enforce": "auto"`). */
  platforms: Record<Platform, Holding[]>;
}

const NO_MAC = 'no Mac on this project';
const ANALYZER: Holding = { mechanism: 'the analyzer alone (the hook cannot replace the command)', unixSockets: 'not held: the analyzer only', verifiedBy: null };

/** The architectures the seccomp filter exists for, as the table says them. */
function filterArchs(): string {
  return ['x64', 'arm64'].filter((a) => unixSocketFilter(a) !== null).join(', ');
}

const LANDLOCK_SOCKETS = 'refused: the same filter, installed by the builtin or the helper (`test/system/layers/unix-sockets.test.ts`)';

/** The wrapper's mechanisms on Linux, for a client whose hook replaces the command: the tests that ran each with the real client. */
function linuxWrapper(real: { mounts: string; landlock: string | null }): Holding[] {
  return [
    { mechanism: "bubblewrap's mounts, made in the client's bash or by bashguard's helper", unixSockets: `refused: the same filter, installed by the builtin or the helper (${filterArchs()}; \`test/system/layers/unix-sockets.test.ts\`)`, verifiedBy: real.mounts, realClient: true },
    { mechanism: 'bubblewrap (`"enforce": "bwrap"`, or where the mounts cannot be made without it)', unixSockets: `refused: seccomp filter on socket(AF_UNIX) (${filterArchs()})`, verifiedBy: 'test/system/layers/unix-sockets.test.ts' },
    real.landlock
      ? { mechanism: 'Landlock (no user namespaces)', unixSockets: LANDLOCK_SOCKETS, verifiedBy: real.landlock, realClient: true }
      : { mechanism: 'Landlock (no user namespaces)', unixSockets: LANDLOCK_SOCKETS, verifiedBy: 'test/system/layers/landlock.test.ts' },
  ];
}

const SEATBELT: Holding = { mechanism: 'Seatbelt (`sandbox-exec`, src/layers/sandbox/seatbelt.ts)', unixSockets: 'not held: the profile allows network-outbound', verifiedBy: null, unverified: `${NO_MAC}; the generated profile's rules are evaluated on paper (\`test/system/layers/seatbelt-profile.test.ts\`, \`test/system/layers/seatbelt.test.ts\`)` };

export const CAPABILITIES: ClientCapability[] = [
  {
    client: 'claude',
    title: 'Claude Code',
    platforms: {
      linux: [
        ...linuxWrapper({ mounts: 'test/system/e2e/enforce.e2e.test.ts', landlock: 'test/system/e2e/landlock.e2e.test.ts' }),
        { mechanism: 'its own sandbox (`"enforce": "client"`)', unixSockets: "its own seccomp filter (sandbox-runtime's apply-seccomp; not checked here)", verifiedBy: 'test/system/e2e/client-sandbox.e2e.test.ts', realClient: true },
      ],
      macos: [SEATBELT, { mechanism: 'its own sandbox (`"enforce": "client"`)', unixSockets: "its profile allows only the sockets its settings list (sandbox-runtime 0.0.78's profile, read, not run)", verifiedBy: null, unverified: NO_MAC }],
    },
  },
  {
    client: 'codex',
    title: 'Codex CLI',
    platforms: {
      linux: [
        ...linuxWrapper({ mounts: 'test/system/e2e/codex-enforce.e2e.test.ts', landlock: null }),
        { mechanism: 'its own sandbox (`workspace-write`, where the wrapped command finds it holding)', unixSockets: 'its own seccomp filter (not checked here)', verifiedBy: 'test/system/e2e/codex-enforce.e2e.test.ts', realClient: true },
      ],
      macos: [SEATBELT],
    },
  },
  { client: 'gemini', title: 'Gemini CLI', platforms: { linux: [{ ...ANALYZER, verifiedBy: 'test/system/e2e/gemini-hook.e2e.test.ts', realClient: true }], macos: [{ ...ANALYZER, unverified: NO_MAC }] } },
  { client: 'cursor', title: 'Cursor', platforms: { linux: [{ ...ANALYZER, unverified: 'no Cursor client here; the protocol is from its documentation' }], macos: [{ ...ANALYZER, unverified: NO_MAC }] } },
  { client: 'copilot', title: 'Copilot CLI', platforms: { linux: [{ ...ANALYZER, unverified: 'no Copilot client here; the protocol is from its documentation' }], macos: [{ ...ANALYZER, unverified: NO_MAC }] } },
];

/**
 * The list checked against the code: a client whose hook cannot replace the command has no
 * wrapper, and one that can has one; throws naming the first mismatch.
 */
export function checkCapabilities(list: ClientCapability[] = CAPABILITIES): void {
  for (const name of Object.keys(CLIENTS)) if (!list.some((c) => c.client === name)) throw new Error(`capabilities: no entry for the client ${name}`);
  for (const c of list) {
    const replaces = CLIENTS[c.client]?.canReplaceCommand === true;
    for (const [platform, holdings] of Object.entries(c.platforms)) {
      const wrapped = holdings.some((h) => !h.mechanism.startsWith('the analyzer alone'));
      if (wrapped !== replaces) throw new Error(`capabilities: ${c.client} on ${platform} ${wrapped ? 'lists a wrapper, but its hook cannot replace the command' : 'lists no wrapper, but its hook replaces the command'}`);
    }
  }
}

/** The table in docs/limits.md, between its markers. */
export function capabilityTable(list: ClientCapability[] = CAPABILITIES): string {
  checkCapabilities(list);
  const rows = ['| client | platform | mechanism (in the order `auto` tries them) | Unix sockets to a daemon outside | verified |', '|---|---|---|---|---|'];
  for (const c of list) {
    for (const platform of ['linux', 'macos'] as const) {
      for (const h of c.platforms[platform]) {
        const verified = h.verifiedBy ? `verified${h.realClient ? ' with the real client' : ' (the wrapper run as the client runs it)'}: \`${h.verifiedBy}\`` : `**unverified**${h.unverified ? `: ${h.unverified}` : ''}`;
        rows.push(`| ${c.title} | ${platform === 'linux' ? 'Linux' : 'macOS'} | ${h.mechanism} | ${h.unixSockets} | ${verified} |`);
      }
    }
  }
  return rows.join('\n');
}

export const TABLE_BEGIN = '<!-- capabilities: generated by scripts/gen-capabilities.mjs from src/frontends/hook/clients/capabilities.ts; do not edit -->';
export const TABLE_END = '<!-- capabilities: end -->';

/** `doc` with the table between the markers replaced; throws where the markers are missing. */
export function withTable(doc: string, table = capabilityTable()): string {
  const a = doc.indexOf(TABLE_BEGIN);
  const b = doc.indexOf(TABLE_END);
  if (a < 0 || b < a) throw new Error('docs/limits.md: the capability table markers are missing');
  return `${doc.slice(0, a + TABLE_BEGIN.length)}\n${table}\n${doc.slice(b)}`;
}
