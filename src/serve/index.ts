/**
 * `lessor-sim/serve`: your programs under test from code, as `lessor-sim serve FILE -- CMD` runs them from
 * the command line. `serveApps` serves the scenario's cluster behind etcd's v3 gRPC API on free loopback
 * ports, starts the programs with its endpoints, applies the scenario's steps to cluster and programs at
 * their instants, and resolves to `serve`'s exit code with the trace and the holder monitors' findings.
 */
export { serveApps, type AppCommand, type ServeAppsOptions, type ServeAppsResult } from './serve-apps.js';
export type { AppExit, AppLine } from '../apps/app-runner.js';
export type { AppJudgement } from '../apps/judge.js';
export type { Fence } from '../apps/resource-server.js';
export type { AppVerdict } from '../cli/app-verdict.js';
