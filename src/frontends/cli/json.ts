import { HOLE, type Effect } from '../../engine/effects/types.js';

/** Effects for JSON output: holes shown as `…` so the output stays printable. */
export function effectsToJson(effects: Effect[]): unknown[] {
  return JSON.parse(JSON.stringify(effects).split('\\u0000').join('…')) as unknown[];
}

