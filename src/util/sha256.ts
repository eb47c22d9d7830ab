/**
 * SHA-256 of a string's UTF-8 bytes as 64 hex digits: `createHash('sha256').update(text).digest('hex')`.
 *
 * Through bashguard's addon (native/tree-export.c `sha256Hex`: OpenSSL's SHA256, which Node
 * exports to addons) where it is built, else through node:crypto. Lint's fingerprints hash a few
 * short strings per finding; loading node:crypto for them cost a lint process ~2.5 ms and its
 * first few hundred hashes ~0.7 ms more, against ~0.1 ms for 150 hashes in the addon, which
 * lint has loaded for its parser anyway. The digest is the same either way (test/unit/util/sha256.test.ts):
 * fingerprints are kept in baselines and SARIF files.
 */
import { createHash } from 'node:crypto';
import { treeAddon } from './tree-addon.js';

let native: ((text: string) => string | null) | null | undefined;

export function sha256Hex(text: string): string {
  if (native === undefined) {
    try {
      const fn = treeAddon().sha256Hex;
      native = typeof fn === 'function' ? (fn as (text: string) => string | null) : null;
    } catch {
      native = null;
    }
  }
  const hex = native?.(text);
  return typeof hex === 'string' ? hex : createHash('sha256').update(text).digest('hex');
}

/** Whether sha256Hex goes through the addon in this process (tests). */
export function sha256IsNative(): boolean {
  sha256Hex('');
  return typeof native === 'function' && native('') !== null;
}
