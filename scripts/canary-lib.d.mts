// Types of scripts/canary-lib.mjs for the tests that import it.
export interface CanaryPackage { name: string; version: string; sourced: string[] }
export interface CanaryFile { pkg: string; rel: string; path: string; line: number; canary: string }
export interface Prepared { dir: string; total: number; rejected: number; files: CanaryFile[] }
export type Fate = 'reported' | 'unreachable' | 'unreachable-unverified' | 'parse-error' | 'incomplete' | 'dropped';
export interface Classified extends CanaryFile { fate: Fate; why: string[]; parseErrors: number; error: string | null }
export interface LintedFile { file: string; error: string | null; findings: { rule: string; line: number; endLine?: number; message: string; target?: string | null }[] }
export interface AgentCommand { corpus: string; cmd: string }
export interface HookCase extends AgentCommand { text: string }

export const REPO: string;
export const PACKAGES: CanaryPackage[];
export const CANARY_PREFIX: string;
export const HOOK_CANARY: string;
export const FOUND: Set<string>;
export function cacheDir(): string;
export function fetchPackages(log?: (m: string) => void): { dir: string; skip?: undefined } | { skip: string; dir?: undefined };
export function shellFiles(pkg: CanaryPackage, root: string): string[];
export function bashAccepts(files: string[]): boolean[];
export function canaryIndex(lines: string[]): number;
export function prepare(pkgsDir: string, log?: (m: string) => void): Prepared;
export function lintAll(prepared: Prepared, opts?: { bin?: string; jobs?: number }): Map<string, LintedFile>;
export function reasonHolds(note: { message: string }, source: string, canaryLine: number): boolean;
export function classify(prepared: Prepared, byPath: Map<string, LintedFile>): Classified[];
export function agentCommands(sharedDir: string): AgentCommand[];
export function hookCases(cmds: AgentCommand[]): { cases: HookCase[]; total: number };
