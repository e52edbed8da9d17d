import { Prng } from '../../src/clock/prng.js';
import { Process } from '../../src/clock/process.js';
import { Scheduler } from '../../src/clock/scheduler.js';
import { EtcdClient, isRpcError, type EtcdClientOptions } from '../../src/client/index.js';
import type { RpcError } from '../../src/cluster/server/api.js';
import { Trace, type TraceEvent } from '../../src/trace/trace.js';
import { FakeCluster, type FakeClusterOptions } from './fake-cluster.js';

export const S = 1_000_000;
export const MS = 1_000;

/**
 * A scheduler, a fake cluster, a trace, and a factory for clients on their own processes. Clients here
 * run the keepalive send loop on an exact 500 ms grid (`sendPassDriftUs: 0`) unless a test asks for
 * the drift, so these tests can pin the loop's arithmetic to round instants; the drift has its own tests.
 */
export function world(opts: FakeClusterOptions & { readonly seed?: string } = {}) {
  const sched = new Scheduler();
  const trace = new Trace();
  const cluster = new FakeCluster(sched, opts);
  const root = new Prng(opts.seed ?? 'client-spec');

  const client = (name: string, o: Partial<Omit<EtcdClientOptions, 'name'>> = {}): EtcdClient => {
    const process = o.process ?? new Process(name, sched);
    return new EtcdClient({
      name,
      process,
      transport: cluster.transportFor(process),
      prng: root.fork(name),
      trace,
      sendPassDriftUs: 0,
      ...o,
    });
  };

  /** Trace events of `kind` (by `member` if given). */
  const events = (kind: string, member?: string): TraceEvent[] =>
    trace.events.filter((e) => e.kind === kind && (member === undefined || e.member === member));
  /** Times of those events in seconds. */
  const times = (kind: string, member?: string): number[] => events(kind, member).map((e) => e.t / S);

  return {
    sched,
    trace,
    cluster,
    client,
    events,
    times,
    at: (t: number, fn: () => void) => sched.at(t, fn),
    run: (t: number) => sched.runUntil(t),
  };
}

/** Unwraps a callback result in a test, failing loudly on an error. */
export function ok<T>(res: T | RpcError): T {
  if (isRpcError(res)) throw new Error(`unexpected error ${res.name}: ${res.message}`);
  return res;
}

/** Collects a callback's result and when it came. */
export interface Captured<T> {
  value: T | RpcError | undefined;
  at: number | undefined;
  calls: number;
  readonly cb: (r: T | RpcError) => void;
}

export function capture<T>(clock: { now(): number }): Captured<T> {
  const box: Captured<T> = {
    value: undefined,
    at: undefined,
    calls: 0,
    cb: (r) => {
      box.value = r;
      box.at = clock.now();
      box.calls++;
    },
  };
  return box;
}
