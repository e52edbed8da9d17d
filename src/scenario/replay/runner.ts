import { Process } from '../../clock/process.js';
import { Scheduler } from '../../clock/scheduler.js';
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { Cluster } from '../../cluster/cluster.js';
import type { ClusterTransport, RpcError } from '../../cluster/server/api.js';
import { isRpcError } from '../../cluster/server/api.js';
import { EtcdClient, FencedResource, Mutex, Session, CLIENT_PROFILES, type KeepAliveChannel } from '../../client/index.js';
import { invoke } from '../../client/invoke.js';
import { Marks } from '../../trace/marks.js';
import { Trace, type FieldValue } from '../../trace/trace.js';
import type { ExpectStep, Scenario, Step } from '../types.js';
import { describeAssertion } from './describe.js';
import { evaluate, type AssertionContext } from './assertions.js';
import { clusterConfigOf } from './cluster-config.js';
import { LabelBook } from './labels.js';
import { groupByTime } from '../group-by-time.js';

/** The cluster boots this long before the scenario's time 0, so n1 leads and is primary at 0. */
export const BOOTSTRAP_US: Micros = MICROS_PER_SECOND;
/** etcdctl's --command-timeout. */
const COMMAND_TIMEOUT_US: Micros = 5 * MICROS_PER_SECOND;

export interface RunOptions {
  /** Overrides the scenario's seed (the CLI's --seed). */
  readonly seed?: number;
  /** Overrides the scenario's profile (the CLI's --profile). */
  readonly profile?: Scenario['profile'];
  /** The trace to record into (e.g. one without hashing, for campaigns); a fresh one by default. */
  readonly trace?: Trace;
  /** Called with the cluster once it is built, so a harness can inspect it during the run. */
  readonly onCluster?: (cluster: Cluster) => void;
}

export interface AssertionResult {
  readonly step: ExpectStep;
  readonly atUs: Micros;
  readonly pass: boolean;
  /** The assertion in words. */
  readonly text: string;
  /** What was observed. */
  readonly got: string;
}

export interface RunResult {
  readonly scenario: Scenario;
  readonly seed: number;
  readonly profile: Scenario['profile'];
  readonly assertions: readonly AssertionResult[];
  /** A problem that stopped the scenario from running as written (bad cluster settings, no leader at 0). */
  readonly setupError: string | undefined;
  readonly trace: Trace;
  readonly marks: Marks;
  readonly labels: LabelBook;
  readonly cluster: Cluster | undefined;
  readonly passed: boolean;
}

/** One client process of the scenario (c1, writer-2): an EtcdClient and what it holds. */
interface ScenarioClient {
  readonly client: EtcdClient;
  readonly keepAlives: Map<bigint, KeepAliveChannel>;
  readonly locks: Map<string, Mutex>;
}

/**
 * Replays a scenario: builds its cluster, performs each step at its virtual time (same-instant steps in
 * file order), evaluates every `expect` after all other events of its instant, and runs to the end.
 * Everything that happens is in the returned trace; nothing in the scenario can make this throw.
 */
export function runScenario(scenario: Scenario, opts: RunOptions = {}): RunResult {
  const seed = opts.seed ?? scenario.seed;
  const profile = opts.profile ?? scenario.profile;
  const trace = opts.trace ?? new Trace();
  const marks = new Marks();
  const labels = new LabelBook();
  const assertions: AssertionResult[] = [];
  const result = (setupError: string | undefined, cluster: Cluster | undefined): RunResult => ({
    scenario,
    seed,
    profile,
    assertions,
    setupError,
    trace,
    marks,
    labels,
    cluster,
    passed: setupError === undefined && assertions.every((a) => a.pass),
  });

  const cfg = clusterConfigOf(scenario, profile, seed);
  if (typeof cfg === 'string') return result(cfg, undefined);
  const sched = new Scheduler(-BOOTSTRAP_US);
  let cluster: Cluster;
  try {
    cluster = new Cluster(cfg, { sched, trace, marks });
  } catch (e) {
    // Settings the parser let through but etcd would refuse at start-up: report, never crash.
    return result(`the cluster cannot start with these settings: ${e instanceof Error ? e.message : String(e)}`, undefined);
  }
  opts.onCluster?.(cluster);
  sched.runUntil(0);
  const first = cluster.leader();
  if (first?.name !== 'n1' || !first.lessor.isPrimary()) {
    return result(`the cluster did not elect n1 within ${BOOTSTRAP_US / MICROS_PER_SECOND} s before time 0 (check latency and fsync)`, cluster);
  }
  const replay = new Replay(scenario, cluster, trace, labels, profile);
  const groups = groupByTime(scenario.steps);
  for (const [at, steps] of groups) {
    cluster.runUntil(at);
    for (const s of steps) if (s.kind !== 'expect') replay.perform(s);
    cluster.runUntil(at); // what those steps set off at this same instant
    for (const s of steps) {
      if (s.kind !== 'expect') continue;
      const v = evaluate(s.assertion, replay);
      const text = describeAssertion(s.assertion);
      assertions.push({ step: s, atUs: at, pass: v.pass, text, got: v.got });
      replay.emit('sim', v.pass ? 'expect-pass' : 'expect-fail', { line: s.pos.line, expect: text, got: v.got });
    }
  }
  cluster.runUntil(Math.max(scenario.durationUs, cluster.now()));
  return result(undefined, cluster);
}

/** The replay's moving parts: clients, resources, and the etcdctl-like control client per member. */
class Replay implements AssertionContext {
  private readonly clients = new Map<string, ScenarioClient>();
  private readonly ctls = new Map<string, EtcdClient>();
  private readonly resources = new Map<string, FencedResource>();

  constructor(
    private readonly scenario: Scenario,
    readonly cluster: Cluster,
    private readonly trace: Trace,
    readonly labels: LabelBook,
    private readonly profile: Scenario['profile'],
  ) {}

  emit(member: string, kind: string, fields: Record<string, FieldValue>, lease?: bigint): void {
    this.trace.emit(lease === undefined ? { t: this.cluster.now(), member, kind, fields } : { t: this.cluster.now(), member, kind, lease, fields });
  }

  // ---- AssertionContext ----------------------------------------------------------------------------

  keepAliveAlive(client: string, lease: bigint): boolean | undefined {
    const ch = this.clients.get(client)?.keepAlives.get(lease);
    return ch === undefined ? undefined : ch.alive;
  }

  lockHeld(client: string, lock: string): boolean {
    return this.clients.get(client)?.locks.get(lock)?.isOwner ?? false;
  }

  resource(name: string): { accepted: number; rejected: number } | undefined {
    const r = this.resources.get(name);
    return r === undefined ? undefined : { accepted: r.accepted, rejected: r.rejected };
  }

  // ---- Steps ---------------------------------------------------------------------------------------

  perform(s: Exclude<Step, ExpectStep>): void {
    this.emit('sim', 'step', { line: s.pos.line, action: s.kind });
    const c = this.cluster;
    switch (s.kind) {
      case 'grant':
        return this.grant(s.lease, s.ttlSeconds, s.id ?? 0n, s.via);
      case 'grant-many': {
        for (let i = 1; i <= s.count; i++) {
          const at = s.atUs + Math.floor(((i - 1) * s.spreadUs) / s.count);
          const label = `${s.prefix}${i}`;
          if (at === s.atUs) this.grant(label, s.ttlSeconds, 0n, s.via);
          else c.sched.at(at, () => this.grant(label, s.ttlSeconds, 0n, s.via));
        }
        return;
      }
      case 'revoke':
        return this.withLease(s.lease, 'revoke', (id) => this.ctl(s.via).revoke(id, this.answer('revoke', id)));
      case 'put':
        if (s.lease === undefined) return this.ctl(s.via).put(s.key, s.value, {}, this.answer('put', undefined, s.key));
        return this.withLease(s.lease, 'put', (id) => this.ctl(s.via).put(s.key, s.value, { lease: id }, this.answer('put', id, s.key)));
      case 'delete':
        return this.ctl(s.via).delete(s.key, this.answer('delete', undefined, s.key));
      case 'keepalive':
        return this.withLease(s.lease, 'keepalive', (id) =>
          this.onClient(s.client, s.via, (sc) => {
            sc.keepAlives.get(id)?.close();
            sc.keepAlives.set(id, sc.client.keepAlive(id));
          }),
        );
      case 'keepalive-stop':
        return this.withLease(s.lease, 'keepalive-stop', (id) => this.onClient(s.client, undefined, (sc) => sc.keepAlives.get(id)?.close()));
      case 'keepalive-once':
        return this.withLease(s.lease, 'keepalive-once', (id) => this.ctl(s.via).keepAliveOnce(id, this.answer('keepalive-once', id), { noDeadline: true }));
      case 'timetolive':
        return this.withLease(s.lease, 'timetolive', (id) => this.ctl(s.via).timeToLive(id, { keys: s.keys }, this.answer('timetolive', id)));
      case 'leases':
        return this.ctl(s.via).leases(this.answer('leases'));
      case 'pause':
      case 'resume': {
        const p = s.member !== undefined ? c.process(s.member) : this.client(s.client!, undefined).client.process;
        const act = (kind: 'pause' | 'resume'): void => {
          if (s.member !== undefined) {
            if (kind === 'pause') c.pause(s.member);
            else c.resume(s.member);
          } else {
            this.emit(s.client!, kind === 'pause' ? 'client-pause' : 'client-resume', {});
            if (kind === 'pause') p.pause();
            else p.resume();
          }
        };
        act(s.kind);
        if (s.kind === 'pause' && s.forUs !== undefined) c.sched.after(s.forUs, () => act('resume'));
        return;
      }
      case 'crash':
        return c.crash(s.member);
      case 'stall':
        c.stall(s.member, s.loop);
        if (s.forUs !== undefined) c.sched.after(s.forUs, () => c.unstall(s.member, s.loop));
        return;
      case 'unstall':
        return c.unstall(s.member, s.loop);
      case 'restart':
        if (c.server(s.member) !== undefined) return this.stepError(s.kind, `${s.member} is running; only a crashed member can restart`);
        return c.restart(s.member);
      case 'transfer-leader':
        if (!c.transferLeader(s.to)) this.stepError(s.kind, 'there is no leader to transfer from');
        return;
      case 'partition':
        return c.partition(s.groups);
      case 'heal':
        return c.heal();
      case 'clock':
        return c.clockJump(s.member, s.jumpUs);
      case 'lock':
        return this.onClient(s.client, undefined, (sc) => {
          Session.create(sc.client, { ttl: s.sessionTtlSeconds }, (session) => {
            if (isRpcError(session)) return this.emit(s.client, 'client-error', { op: 'lock', err: session.name });
            const bugged = this.scenario.bugs.includes('lock-skips-post-wait-check');
            const m = new Mutex(session, s.name, { profile: CLIENT_PROFILES[this.profile], ...(bugged ? { lockSkipsPostWaitCheck: true } : {}) });
            sc.locks.set(s.name, m);
            m.lock((r) => {
              if (isRpcError(r)) this.emit(s.client, 'client-error', { op: 'lock', name: s.name, err: r.name });
            });
          });
        });
      case 'unlock':
        return this.onClient(s.client, undefined, (sc) => {
          const m = sc.locks.get(s.name);
          if (m === undefined) return this.emit(s.client, 'client-error', { op: 'unlock', name: s.name, err: 'not-locked' });
          m.unlock((r) => {
            if (isRpcError(r)) this.emit(s.client, 'client-error', { op: 'unlock', name: s.name, err: r.name });
          });
          m.session.close();
        });
      case 'fenced-write':
        return this.onClient(s.client, undefined, (sc) => {
          const m = sc.locks.get(s.lock);
          if (m === undefined || m.myRevision <= 0) return this.emit(s.client, 'client-error', { op: 'fenced-write', lock: s.lock, err: 'no-fencing-token' });
          let r = this.resources.get(s.resource);
          if (r === undefined) {
            r = new FencedResource(s.resource, this.cluster.sched, { trace: this.trace });
            this.resources.set(s.resource, r);
          }
          r.write(s.client, m.myRevision);
        });
    }
  }

  private grant(label: string, ttl: number, id: bigint, via: string | undefined): void {
    const ctl = this.ctl(via);
    const answered = (res: unknown): void => {
      if (isRpcError(res)) {
        this.labels.fail(label, `the grant of ${label} failed: ${res.name}`);
        return this.emit(ctl.name, 'ctl-error', { op: 'grant', label, err: res.name });
      }
      const r = res as { id: bigint; ttl: number };
      this.labels.bind(label, r.id);
      this.emit(ctl.name, 'ctl-granted', { label, ttl: r.ttl }, r.id);
    };
    if (id === 0n) ctl.grant(ttl, answered);
    else invoke(ctl.core, { op: 'LeaseGrant', ttl, id }, 'repeatable', answered);
  }

  /** Runs `fn` with the lease's ID, now or once its grant is answered. */
  private withLease(label: string, op: string, fn: (id: bigint) => void): void {
    if (!this.labels.whenBound(label, fn)) this.stepError(op, this.labels.whyUnbound(label));
  }

  private answer(op: string, lease?: bigint, key?: string): (res: unknown) => void {
    return (res) => {
      const base: Record<string, FieldValue> = { op, ...(key !== undefined ? { key } : {}) };
      if (isRpcError(res)) return this.emit('ctl', 'ctl-error', { ...base, err: (res as RpcError).name }, lease);
      this.emit('ctl', 'ctl-ok', { ...base, ...summarize(res) }, lease);
    };
  }

  private stepError(op: string, message: string): void {
    this.emit('sim', 'step-error', { op, message });
  }

  /** etcdctl pointed at one member: `via`, else the leader now, else n1. */
  private ctl(via: string | undefined): EtcdClient {
    const target = via ?? this.cluster.leader()?.name ?? 'n1';
    let c = this.ctls.get(target);
    if (c === undefined) {
      const name = `ctl-${target}`;
      const process = new Process(name, this.cluster.sched);
      const transport: ClusterTransport = this.cluster.connect(name, process);
      c = new EtcdClient({ name, process, transport, prng: this.cluster.prng.fork(name), trace: this.trace, endpoints: [target], requestTimeoutUs: COMMAND_TIMEOUT_US });
      this.ctls.set(target, c);
    }
    return c;
  }

  private client(name: string, via: string | undefined): ScenarioClient {
    let sc = this.clients.get(name);
    if (sc === undefined) {
      const process = new Process(name, this.cluster.sched);
      const transport = this.cluster.connect(name, process);
      const names = this.cluster.names;
      // Pinned to `via` on first use (else n1), failing over to the others in order.
      const start = via !== undefined ? names.indexOf(via) : 0;
      const endpoints = [...names.slice(start), ...names.slice(0, start)];
      sc = {
        client: new EtcdClient({ name, process, transport, prng: this.cluster.prng.fork(name), trace: this.trace, endpoints }),
        keepAlives: new Map(),
        locks: new Map(),
      };
      this.clients.set(name, sc);
    }
    return sc;
  }

  /** Runs `fn` on the client's own process: a paused client does it when resumed. */
  private onClient(name: string, via: string | undefined, fn: (sc: ScenarioClient) => void): void {
    const sc = this.client(name, via);
    const p = sc.client.process;
    p.deliver(p.generation, () => fn(sc));
  }
}

/** The useful part of a response, as trace fields. */
function summarize(res: unknown): Record<string, FieldValue> {
  const r = res as Record<string, unknown>;
  const out: Record<string, FieldValue> = {};
  for (const k of ['ttl', 'grantedTTL', 'deleted', 'revision'] as const) {
    if (typeof r[k] === 'number') out[k] = r[k] as number;
  }
  if (Array.isArray(r.keys)) out.keys = r.keys as string[];
  if (Array.isArray(r.ids)) out.leases = (r.ids as bigint[]).length;
  const h = r.header as { revision?: number } | undefined;
  if (h?.revision !== undefined) out.rev = h.revision;
  return out;
}
