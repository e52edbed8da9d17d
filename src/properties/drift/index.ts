// TTL drift: the bound (docs/drift.md), the monitor that measures it on a trace, a schedule runner on the
// real cluster, and the search for runs that come close to the bound.
export { checkpointedStepUs, driftBound, revokeLag, type DriftBoundParams } from './bound.js';
export { DISTURBANCE_KINDS, DRIFT_KINDS, measureDrift, type LeaseDrift, type Promotion } from './measure.js';
export { KindTrace } from './kind-trace.js';
export { PrimaryTracker } from './primary.js';
export { runDrift, type DriftRun, type DriftRunSpec, type Fault } from './run.js';
export { searchTightRun, type TightRun, type TightSearchOptions } from './search.js';
