/** The audit layer: `bashguard audit`, what really changed outside a worktree after a builder ran. */
export { audit, saveBaseline, loadBaseline, baselineFile, compareSnapshots, changedPaths, formatAudit, type AuditReport, type AuditFinding, type AuditKind, type AuditOptions } from './audit.js';
export { takeSnapshot, parsePorcelainZ, type AuditSnapshot, type CheckoutState } from './snapshot.js';
