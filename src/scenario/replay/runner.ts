import { Process } from '../../clock/process.js';
import { Scheduler } from '../../clock/scheduler.js';
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { Cluster } from '../../cluster/cluster.js';
import type { ClientResponse, ClusterTransport, KeepAliveResponse, RpcError } from '../../cluster/server/api.js';
import { isRpcError } from '../../cluster/server/api.js';
import { EtcdClient, CLIENT_PROFILES, type ClientProfile, type FencedResource, type LeaseGrantResponse } from '../../client/index.js';
import { invoke } from '../../client/invoke.js';
import { Marks } from '../../trace/marks.js';
import { Trace, type TraceFields, type TraceKind } from '../../trace/trace.js';
import type { ExpectStep, Scenario, Step } from '../types.js';
import { describeAssertion } from './describe.js';
import { evaluate, type AssertionContext } from './assertions.js';
import { clusterConfigOf } from './cluster-config.js';
import { LabelBook } from './labels.js';
import { groupByTime } from '../group-by-time.js';
import type { BugSet } from '../../lessor/bugs.js';
import { stepEntry } from '../step-kinds.js';
import type { ScenarioClient, StepReplay } from './step-replay.js';

/** What etcdctl's requests answer. */
type CtlResponse = ClientResponse | KeepAliveResponse;

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
  const replay = new Replay(cluster, trace, labels, profile, cfg.bugs);
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
class Replay implements AssertionContext, StepReplay {
  private readonly clients = new Map<string, ScenarioClient>();
  private readonly ctls = new Map<string, EtcdClient>();
  readonly resources = new Map<string, FencedResource>();
  readonly clientProfile: ClientProfile;

  constructor(
    readonly cluster: Cluster,
    readonly trace: Trace,
    readonly labels: LabelBook,
    profile: Scenario['profile'],
    readonly bugs: BugSet,
  ) {
    this.clientProfile = CLIENT_PROFILES[profile];
  }

  emit<K extends TraceKind>(member: string, kind: K, fields: TraceFields[K], lease?: bigint): void {
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
    stepEntry(s.kind).perform(s, this);
  }

  grant(label: string, ttl: number, id: bigint, via: string | undefined): void {
    const ctl = this.ctl(via);
    const answered = (res: LeaseGrantResponse | RpcError): void => {
      if (isRpcError(res)) {
        this.labels.fail(label, `the grant of ${label} failed: ${res.name}`);
        return this.emit(ctl.name, 'ctl-error', { op: 'grant', label, err: res.name });
      }
      this.labels.bind(label, res.id);
      this.emit(ctl.name, 'ctl-granted', { label, ttl: res.ttl }, res.id);
    };
    if (id === 0n) ctl.grant(ttl, answered);
    else invoke(ctl.core, { op: 'LeaseGrant', ttl, id }, 'repeatable', answered);
  }

  /** Runs `fn` with the lease's ID, now or once its grant is answered. */
  withLease(label: string, op: string, fn: (id: bigint) => void): void {
    if (!this.labels.whenBound(label, fn)) this.stepError(op, this.labels.whyUnbound(label));
  }

  answer(op: string, lease?: bigint, key?: string): (res: CtlResponse | RpcError) => void {
    return (res) => {
      const base = { op, ...(key !== undefined ? { key } : {}) };
      if (isRpcError(res)) return this.emit('ctl', 'ctl-error', { ...base, err: res.name }, lease);
      this.emit('ctl', 'ctl-ok', { ...base, ...summarize(res) }, lease);
    };
  }

  stepError(op: string, message: string): void {
    this.emit('sim', 'step-error', { op, message });
  }

  /** etcdctl pointed at one member: `via`, else the leader now, else n1. */
  ctl(via: string | undefined): EtcdClient {
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

  client(name: string, via: string | undefined): ScenarioClient {
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
  onClient(name: string, via: string | undefined, fn: (sc: ScenarioClient) => void): void {
    const sc = this.client(name, via);
    const p = sc.client.process;
    p.deliver(p.generation, () => fn(sc));
  }
}

/** The useful part of a response, as trace fields (in this order). */
function summarize(res: CtlResponse): Omit<TraceFields['ctl-ok'], 'op' | 'key'> {
  return {
    ...('ttl' in res ? { ttl: res.ttl } : {}),
    ...('grantedTTL' in res ? { grantedTTL: res.grantedTTL } : {}),
    ...('deleted' in res ? { deleted: res.deleted } : {}),
    ...('keys' in res ? { keys: res.keys } : {}),
    ...('ids' in res ? { leases: res.ids.length } : {}),
    rev: res.header.revision,
  };
}
