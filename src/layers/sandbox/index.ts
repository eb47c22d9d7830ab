/** The OS-sandbox layer: `bashguard sandbox` (grants as JSON, bwrap arguments, a Seatbelt profile) and `sandbox run`. */
export { sandboxPlan, effectiveAccess, planCovers, type SandboxPlan, type Grant, type Access } from './grants.js';
export { bwrapArgs, bwrapBase, seatbeltProfile, type BwrapOptions } from './render.js';
export { runSandboxed, bwrapAvailable, type Availability, type RunOptions, type RunResult } from './run.js';
export { shellQuote, shellJoin } from '../../util/quote.js';
export { sandboxDecision, wrapInSandbox, bashguardCommand, type SandboxWrap } from './decision.js';
