// Revoke storms: the rate-limited drain and Promote's spreading on the real cluster, measured from the trace.
export { drainBound, REVOKES_IN_FLIGHT, type DrainParams } from './drain.js';
export { formatRateCurve, revokeRateCurve, type RateCurve } from './rate-curve.js';
export { primaryRevokes } from './revokes.js';
export { runStorm, stormDeadlines, type StormRun, type StormSpec } from './run.js';
export {
  promoteRecords,
  spreadReport,
  spreadWindows,
  type PromoteRecord,
  type PromotedLease,
  type SpreadReport,
  type SpreadWindow,
} from './spread.js';
export { maxInWindow } from './windows.js';
