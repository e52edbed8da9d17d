/**
 * lessor-sim's main entry (`import … from 'lessor-sim'`): parse and replay scenario files, read their
 * results and traces, and build a simulated cluster directly for programmatic use. The property toolkit is
 * `lessor-sim/properties`; reports (timeline, explain, HTML) are `lessor-sim/report`.
 */
export { parseScenario, formatError, type ParseOptions, type ParseResult } from './scenario/parse.js';
// Scenario types; the file's cluster section is ScenarioCluster (the simulated cluster's own settings are ClusterConfig
// below).
export type * from './scenario/types.js';
export {
  runScenario,
  runScenarioAsync,
  startScenario,
  MissingUserHolderError,
  BOOTSTRAP_US,
  type ScenarioRun,
  type ClientView,
  type RunOptions,
  type RunResult,
  type AssertionResult,
} from './scenario/replay/runner.js';
export { BUGS, BUG_NAMES, isBugName, type BugName } from './switches/bugs.js';
export {
  Trace,
  NO_TRACE,
  formatEvent,
  formatLeaseId,
  type TraceEvent,
  type TraceListener,
  type TraceFields,
  type TraceKind,
} from './trace/trace.js';
export { Cluster, defaultClusterConfig, type ClusterConfig, type ClusterDeps } from './cluster/cluster.js';
export { Scheduler } from './clock/scheduler.js';
export { Prng } from './clock/prng.js';
export { Process } from './clock/process.js';
export { MICROS_PER_MS, MICROS_PER_SECOND, formatSeconds, type Micros } from './clock/time.js';
export {
  EtcdClient,
  Session,
  Mutex,
  LeaseKeepAlive,
  KeepAliveChannel,
  FencedResource,
  newClientProcess,
  pauseClient,
  resumeClient,
} from './client/index.js';
export { V3_4, V3_5, PROFILES as LESSOR_PROFILES, type Profile as LessorProfile } from './switches/profile.js';
