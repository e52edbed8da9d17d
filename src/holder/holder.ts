import type { Timer } from '../clock/scheduler.js';
import { MICROS_PER_SECOND, type Micros } from '../clock/time.js';
import { isRpcError, type EtcdClient, type FencedResource } from '../client/index.js';
import type { Trace } from '../trace/trace.js';
import type { HolderTruth } from './truth.js';
import { deadline } from './deadline.js';
import type { HeartbeatHost, HeartbeatStrategy, HeldLease, Heartbeat } from './heartbeat.js';
import { HolderTracer } from './holder-tracer.js';
import { runbookGoStep3, runbookGoStep5 } from './runbook-go.js';
import { pythonChecked, runbookPython } from './runbook-python.js';
import type { HolderStrategy } from './strategies.js';

const HEARTBEATS: { readonly [S in HolderStrategy]: HeartbeatStrategy } = {
  'runbook-go-step3': runbookGoStep3,
  'runbook-go-step5': runbookGoStep5,
  'runbook-python': runbookPython,
  'python-checked': pythonChecked,
  deadline,
};

export interface HolderSpec {
  readonly name: string;
  readonly strategy: HolderStrategy;
  /** The lock key, written with the holder's lease by a put-if-absent transaction. */
  readonly key: string;
  readonly ttlSeconds: number;
  /** Writes of the critical section per second, each carrying the fencing token. */
  readonly writesPerSecond: number;
  /** How long before its computed deadline the `deadline` holder stops; unused by the others. */
  readonly marginUs: Micros;
  /** The Python loop's interval; default TTL/3. */
  readonly intervalUs?: Micros;
  /** How often it asks TimeToLive for its lease while it holds the lock (traced as `holder-ttl`); never when absent. */
  readonly ttlCheckIntervalUs?: Micros;
  /** Pause between a failed or lost acquisition and the next attempt; default 1 s. */
  readonly retryUs?: Micros;
}

export interface HolderEnv {
  readonly client: EtcdClient;
  readonly resource: FencedResource;
  readonly trace: Trace;
  /** Records what really happened to the holder's leases (one per run, shared by its holders). */
  readonly truth?: HolderTruth;
}

/**
 * An application process around one lock key: acquire (grant, then a transaction that puts the key with
 * the lease only if the key does not exist), run the critical section (fenced writes at a rate, with the
 * key's revision as the token) while the strategy's heartbeat keeps the lease, stop when the strategy
 * says the lease is lost, and acquire afresh. It runs on its client's process: a paused client is a
 * paused holder.
 */
export class Holder {
  private readonly tracer: HolderTracer;
  private readonly host: HeartbeatHost;
  private current:
    | {
        readonly lease: HeldLease;
        readonly token: number;
        readonly hb: Heartbeat;
        writer: Timer | undefined;
        ttlCheck: Timer | undefined;
      }
    | undefined;

  constructor(
    readonly spec: HolderSpec,
    private readonly env: HolderEnv,
  ) {
    const process = env.client.process;
    this.tracer = new HolderTracer(env.trace, spec.name, process);
    this.host = {
      client: env.client,
      process,
      marginUs: spec.marginUs,
      intervalUs: spec.intervalUs ?? Math.floor((spec.ttlSeconds * MICROS_PER_SECOND) / 3),
      clock: () => process.wallNow(),
      lost: (lease, reason, lateUs) => this.lost(lease, reason, lateUs),
      renewed: (lease, fields) => this.tracer.emit('holder-renewed', lease.id, fields),
      // Traced in virtual time, as the instant the holder's clock will read `until` if it does not jump.
      actsUntil: (lease, until) =>
        this.tracer.emit('holder-deadline', lease.id, { untilUs: until - process.wallNow() + process.now() }),
      noticed: (lease, signal, verdict, fields = {}) =>
        this.tracer.emit('holder-noticed', lease.id, { signal, verdict, ...fields }),
    };
  }

  start(): void {
    this.acquire();
  }

  /** While the key exists (someone holds the lock) it only reads it; then grant and put-if-absent. */
  private acquire(): void {
    this.env.client.get(this.spec.key, {}, (r) => {
      if (isRpcError(r) || r.kvs.length > 0) return this.retry();
      this.grantAndPut();
    });
  }

  private grantAndPut(): void {
    const { client } = this.env;
    const { key, name, ttlSeconds } = this.spec;
    const grantSentAt = this.host.clock();
    client.grant(ttlSeconds, (g) => {
      if (isRpcError(g)) {
        this.tracer.emit('holder-acquire-failed', undefined, { key, err: g.name });
        return this.retry();
      }
      this.env.truth?.watch(name, g.id, key);
      const compare = [{ key, target: 'CREATE', result: 'EQUAL', createRevision: 0 } as const];
      client.txn(
        { compare, success: [{ op: 'Put', key, value: name, lease: g.id }], failure: [{ op: 'Range', key }] },
        (t) => {
          if (isRpcError(t) || !t.succeeded) {
            this.tracer.emit('holder-acquire-failed', g.id, {
              key,
              ...(isRpcError(t) ? { err: t.name } : { held: true }),
            });
            client.revoke(g.id, () => undefined);
            return this.retry();
          }
          const lease: HeldLease = { id: g.id, ttlSeconds: g.ttl, grantSentAt };
          const token = t.header.revision;
          this.tracer.emit('holder-acquired', g.id, { key, token, ttl: g.ttl });
          const hb = HEARTBEATS[this.spec.strategy](this.host, lease);
          this.current = { lease, token, hb, writer: undefined, ttlCheck: undefined };
          this.scheduleTtlCheck();
          this.write();
        },
      );
    });
  }

  private write(): void {
    const c = this.current;
    if (c === undefined) return;
    if (c.hb.mayAct !== undefined && !c.hb.mayAct()) return;
    this.env.resource.write(this.spec.name, c.token);
    if (this.spec.writesPerSecond > 0)
      c.writer = this.env.client.process.after(
        Math.max(1, Math.round(MICROS_PER_SECOND / this.spec.writesPerSecond)),
        () => this.write(),
      );
  }

  /** The periodic TimeToLive an SRE's gauge reads; it observes the lease and decides nothing. */
  private scheduleTtlCheck(): void {
    const c = this.current;
    const every = this.spec.ttlCheckIntervalUs;
    if (c === undefined || every === undefined) return;
    c.ttlCheck = this.env.client.process.after(every, () => {
      this.env.client.timeToLive(c.lease.id, {}, (r) => {
        if (this.current?.lease.id !== c.lease.id) return;
        this.tracer.emit('holder-ttl', c.lease.id, isRpcError(r) ? { err: r.name } : { ttl: r.ttl });
      });
      this.scheduleTtlCheck();
    });
  }

  private lost(lease: HeldLease, reason: string, lateUs = 0): void {
    if (this.current?.lease.id !== lease.id) return;
    this.stopActing(reason, lateUs);
    this.retry();
  }

  /** `lateUs`: how long ago the holder really stopped acting (a deadline passed while it was paused). */
  private stopActing(reason: string, lateUs = 0): void {
    const c = this.current!;
    this.current = undefined;
    c.writer?.cancel();
    c.ttlCheck?.cancel();
    c.hb.cancel();
    this.tracer.emit('holder-stop', c.lease.id, { reason, ...(lateUs > 0 ? { lateUs } : {}) });
    // Release: the lease may still be alive (a deadline reached, a stream given up); let the next owner in.
    this.env.client.revoke(c.lease.id, () => undefined);
  }

  private retry(): void {
    this.env.client.process.after(this.spec.retryUs ?? MICROS_PER_SECOND, () => this.acquire());
  }
}
