import type { Scheduler } from '../clock/scheduler.js';
import type { Micros } from '../clock/time.js';
import type { KeepAliveResponse, RpcError, TxnCompare, TxnOp } from '../cluster/server/api.js';
import {
  isRpcError,
  type Callback,
  type EtcdClient,
  type FencedResource,
  type KeepAliveCloseReason,
  type LeaseGrantResponse,
  type LeaseRevokeResponse,
  type LeaseTimeToLiveResponse,
  type PutResponse,
  type RangeResponse,
  type TxnResponse,
} from '../client/index.js';
import type { Trace } from '../trace/trace.js';
import { HolderTracer } from './holder-tracer.js';
import type { HolderTruth } from './truth.js';

/** An RPC that failed, as a user holder's `await` throws it: the etcd error name is `rpc.name`. */
export class HolderRpcError extends Error {
  constructor(readonly rpc: RpcError) {
    super(`${rpc.name}: ${rpc.message}`);
    this.name = 'HolderRpcError';
  }
}

/** clientv3's KeepAlive channel for `await`: `next()` is the next response, undefined once closed. */
export interface UserKeepAlive {
  next(): Promise<KeepAliveResponse | undefined>;
  /** Cancels the caller's context. */
  close(): void;
  readonly closeReason: KeepAliveCloseReason | undefined;
}

/**
 * What a user-written holder gets: the simulated clientv3 with `await`, its own clock, the fenced
 * resource, and two declarations of belief (`acquired`, `stopped`) that the monitors hold it to.
 * Everything runs on virtual time; awaiting anything else breaks the run's determinism.
 */
export interface HolderApi {
  readonly name: string;
  /** The holder's own clock, µs (its process's wall clock). */
  now(): Micros;
  sleep(us: Micros): Promise<void>;
  grant(ttlSeconds: number): Promise<LeaseGrantResponse>;
  revoke(id: bigint): Promise<LeaseRevokeResponse>;
  put(key: string, value: string, opts?: { readonly lease?: bigint }): Promise<PutResponse>;
  get(key: string): Promise<RangeResponse>;
  txn(t: {
    readonly compare: readonly TxnCompare[];
    readonly success: readonly TxnOp[];
    readonly failure: readonly TxnOp[];
  }): Promise<TxnResponse>;
  timeToLive(id: bigint): Promise<LeaseTimeToLiveResponse>;
  keepAliveOnce(id: bigint): Promise<KeepAliveResponse>;
  keepAlive(id: bigint): UserKeepAlive;
  /** "I hold the lock with this lease and token": the critical section starts. */
  acquired(lease: bigint, key: string, token: number): void;
  /**
   * "I no longer act": the critical section ends. `actedUntil` (own clock): it really ended earlier, at a
   * deadline it checked before every act, and it is only noticing now (it was paused).
   */
  stopped(reason: string, actedUntil?: Micros): void;
  /**
   * "I will not act after this instant of my own clock" (a deadline checked before every act): the
   * monitors end the holder's belief there even if it is paused and cannot say `stopped` in time.
   */
  actsUntil(ownClockUs: Micros): void;
  /** A write to the fenced resource; true if accepted. */
  write(token: number): boolean;
}

export type UserHolderFn = (api: HolderApi) => Promise<void>;

/**
 * Counts promises settled inside simulation events, so an async driver knows to let their
 * continuations run before the next event (they would otherwise run after the whole replay).
 */
export class SettleGate {
  private settled = 0;

  get dirty(): boolean {
    return this.settled > 0;
  }

  mark(): void {
    this.settled++;
  }

  /** Lets every continuation queued so far run (a macrotask starts only once the microtasks drain). */
  async drain(): Promise<void> {
    while (this.settled > 0) {
      this.settled = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

/** Runs the scheduler to `untilUs`, letting holder continuations run after each event that settled one. */
export async function runUntilSettled(sched: Scheduler, untilUs: Micros, gate: SettleGate): Promise<void> {
  for (;;) {
    await gate.drain();
    const next = sched.peekTime();
    if (next === undefined || next > untilUs) break;
    sched.step();
  }
  sched.runUntil(untilUs);
}

export interface UserHolderEnv {
  readonly name: string;
  readonly client: EtcdClient;
  readonly resource: FencedResource;
  readonly trace: Trace;
  readonly truth?: HolderTruth;
  readonly gate: SettleGate;
}

/** Starts a user holder on its client's process; a throw ends it with `holder-failed` naming where. */
export function startUserHolder(fn: UserHolderFn, env: UserHolderEnv, failed: (message: string) => void): void {
  const { client, gate } = env;
  const p = client.process;
  const tracer = new HolderTracer(env.trace, env.name, p);
  let current: { lease: bigint; token: number } | undefined;
  const call = <R>(start: (cb: Callback<R>) => void): Promise<R> =>
    new Promise<R>((resolve, reject) =>
      start((res) => {
        gate.mark();
        if (isRpcError(res)) reject(new HolderRpcError(res));
        else resolve(res as R);
      }),
    );
  const api: HolderApi = {
    name: env.name,
    now: () => p.wallNow(),
    sleep: (us) =>
      new Promise<void>((resolve) =>
        p.after(Math.max(0, Math.round(us)), () => {
          gate.mark();
          resolve();
        }),
      ),
    grant: (ttl) =>
      call<LeaseGrantResponse>((cb) => client.grant(ttl, cb)).then((g) => {
        env.truth?.watch(env.name, g.id);
        return g;
      }),
    revoke: (id) => call((cb) => client.revoke(id, cb)),
    put: (key, value, o = {}) => call((cb) => client.put(key, value, o, cb)),
    get: (key) => call((cb) => client.get(key, {}, cb)),
    txn: (t) => call((cb) => client.txn(t, cb)),
    timeToLive: (id) => call((cb) => client.timeToLive(id, {}, cb)),
    keepAliveOnce: (id) => call((cb) => client.keepAliveOnce(id, cb)),
    keepAlive: (id) => userKeepAlive(client, id, gate),
    acquired(lease, key, token) {
      current = { lease, token };
      tracer.emit('holder-acquired', lease, { key, token });
    },
    stopped(reason, actedUntil) {
      if (current === undefined) return;
      const lateUs = actedUntil === undefined ? 0 : Math.max(0, p.wallNow() - actedUntil);
      tracer.emit('holder-stop', current.lease, { reason, ...(lateUs > 0 ? { lateUs } : {}) });
      current = undefined;
    },
    actsUntil(until) {
      if (current !== undefined)
        tracer.emit('holder-deadline', current.lease, { untilUs: until - p.wallNow() + p.now() });
    },
    write: (token) => env.resource.write(env.name, token),
  };
  p.runFromOutside(p.generation, () => {
    fn(api).catch((e: unknown) => {
      const where = thrownAt(e);
      tracer.emit('holder-failed', current?.lease, {
        error: e instanceof Error ? e.message : String(e),
        ...(where !== undefined ? { at: where } : {}),
      });
      failed(
        `holder ${env.name} threw${where !== undefined ? ` at ${where}` : ''}` +
          `: ${e instanceof Error ? e.message : String(e)}`,
      );
    });
  });
}

function userKeepAlive(client: EtcdClient, id: bigint, gate: SettleGate): UserKeepAlive {
  const ch = client.keepAlive(id);
  const queued: KeepAliveResponse[] = [];
  const waiting: ((r: KeepAliveResponse | undefined) => void)[] = [];
  ch.onResponse((r) => {
    const w = waiting.shift();
    if (w === undefined) queued.push(r);
    else {
      gate.mark();
      w(r);
    }
  });
  ch.onClose(() => {
    for (const w of waiting.splice(0)) {
      gate.mark();
      w(undefined);
    }
  });
  return {
    next() {
      const r = queued.shift();
      if (r !== undefined || ch.closed) return Promise.resolve(r);
      return new Promise((resolve) => waiting.push(resolve));
    },
    close: () => ch.close(),
    get closeReason() {
      return ch.closeReason;
    },
  };
}

/** The first stack frame outside the simulator: the user's file:line:col. */
function thrownAt(e: unknown): string | undefined {
  if (!(e instanceof Error) || e.stack === undefined) return undefined;
  for (const line of e.stack.split('\n').slice(1)) {
    const m = /\(?((?:file:\/\/)?[^\s()]+:\d+:\d+)\)?\s*$/.exec(line.trim());
    if (m === null || /\/src\/holder\/|node:internal|node_modules/.test(m[1]!)) continue;
    return m[1]!.replace(/^file:\/\//, '');
  }
  return undefined;
}
