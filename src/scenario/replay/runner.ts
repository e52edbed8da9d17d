import { Process } from '../../clock/process.js';
import { Scheduler } from '../../clock/scheduler.js';
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { Cluster } from '../../cluster/cluster.js';
import type { ClusterTransport, RpcError } from '../../cluster/server/api.js';
import { isRpcError } from '../../cluster/server/api.js';
import { EtcdClient, CLIENT_PROFILES, FencedResource, type ClientProfile } from '../../client/index.js';
import { invoke } from '../../client/invoke.js';
import { Holder, HolderLedger, HolderTruth, isHolderStrategy, runUntilSettled, SettleGate, startUserHolder, type UserHolderFn } from '../../holder/index.js';
import { Marks } from '../../trace/marks.js';
import { Trace, type FieldValue } from '../../trace/trace.js';
import type { ExpectStep, HolderStep, Scenario, Step } from '../types.js';
import { describeAssertion } from './describe.js';
import { evaluate, type AssertionContext } from './assertions.js';
import { clusterConfigOf } from './cluster-config.js';
import { LabelBook } from './labels.js';
import { groupByTime } from '../group-by-time.js';
import type { BugSet } from '../../lessor/bugs.js';
import { stepEntry } from '../step-kinds.js';
import type { ScenarioClient, StepReplay } from './step-replay.js';

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
  /** Holders written in TypeScript, for `strategy: user:<name>` (only `runScenarioAsync` runs them). */
  readonly userHolders?: Readonly<Record<string, UserHolderFn>>;
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
  /** User holders that threw, each saying where (absent: none did). */
  readonly holderErrors?: readonly string[];
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
  const replay = replayScenario(scenario, opts, undefined);
  for (let r = replay.next(); ; r = replay.next()) {
    if (r.done === true) return r.value;
    r.value.cluster.runUntil(r.value.untilUs);
  }
}

/**
 * `runScenario` for scenarios with holders written as async functions (`strategy: user:<name>` and
 * `opts.userHolders`): after every event that settled one of their promises, their continuations run
 * before virtual time moves on. Same seed, same trace.
 */
export async function runScenarioAsync(scenario: Scenario, opts: RunOptions = {}): Promise<RunResult> {
  const gate = new SettleGate();
  const replay = replayScenario(scenario, opts, gate);
  for (let r = replay.next(); ; r = replay.next()) {
    if (r.done === true) return r.value;
    await runUntilSettled(r.value.cluster.sched, r.value.untilUs, gate);
  }
}

/** How far the replay wants virtual time run before it goes on. */
interface RunTo {
  readonly cluster: Cluster;
  readonly untilUs: Micros;
}

function* replayScenario(scenario: Scenario, opts: RunOptions, gate: SettleGate | undefined): Generator<RunTo, RunResult, void> {
  const seed = opts.seed ?? scenario.seed;
  const profile = opts.profile ?? scenario.profile;
  const trace = opts.trace ?? new Trace();
  const marks = new Marks();
  const labels = new LabelBook();
  const assertions: AssertionResult[] = [];
  const holderErrors: string[] = [];
  const result = (setupError: string | undefined, cluster: Cluster | undefined): RunResult => ({
    scenario,
    seed,
    profile,
    assertions,
    setupError,
    holderErrors,
    trace,
    marks,
    labels,
    cluster,
    passed: setupError === undefined && holderErrors.length === 0 && assertions.every((a) => a.pass),
  });

  const cfg = clusterConfigOf(scenario, profile, seed);
  if (typeof cfg === 'string') return result(cfg, undefined);
  const missing = missingUserHolder(scenario, opts, gate);
  if (missing !== undefined) return result(missing, undefined);
  const sched = new Scheduler(-BOOTSTRAP_US);
  let cluster: Cluster;
  try {
    cluster = new Cluster(cfg, { sched, trace, marks });
  } catch (e) {
    // Settings the parser let through but etcd would refuse at start-up: report, never crash.
    return result(`the cluster cannot start with these settings: ${e instanceof Error ? e.message : String(e)}`, undefined);
  }
  opts.onCluster?.(cluster);
  yield { cluster, untilUs: 0 };
  const first = cluster.leader();
  if (first?.name !== 'n1' || !first.lessor.isPrimary()) {
    return result(`the cluster did not elect n1 within ${BOOTSTRAP_US / MICROS_PER_SECOND} s before time 0 (check latency and fsync)`, cluster);
  }
  const users = { fns: opts.userHolders ?? {}, gate, failed: (m: string) => holderErrors.push(m) };
  const replay = new Replay(cluster, trace, labels, profile, cfg.bugs, users);
  const groups = groupByTime(scenario.steps);
  for (const [at, steps] of groups) {
    yield { cluster, untilUs: at };
    for (const s of steps) if (s.kind !== 'expect') replay.perform(s);
    yield { cluster, untilUs: at }; // what those steps set off at this same instant
    for (const s of steps) {
      if (s.kind !== 'expect') continue;
      const v = evaluate(s.assertion, replay);
      const text = describeAssertion(s.assertion);
      assertions.push({ step: s, atUs: at, pass: v.pass, text, got: v.got });
      replay.emit('sim', v.pass ? 'expect-pass' : 'expect-fail', { line: s.pos.line, expect: text, got: v.got });
    }
  }
  yield { cluster, untilUs: Math.max(scenario.durationUs, cluster.now()) };
  return result(undefined, cluster);
}

/** A `user:<name>` holder the options do not supply, or that the synchronous replay cannot run. */
function missingUserHolder(scenario: Scenario, opts: RunOptions, gate: SettleGate | undefined): string | undefined {
  for (const s of scenario.steps) {
    if (s.kind !== 'holder' || isHolderStrategy(s.strategy)) continue;
    const name = s.strategy.slice('user:'.length);
    if (opts.userHolders?.[name] === undefined) return `${scenario.file}:${s.pos.line}:${s.pos.col}: holder ${s.name} uses strategy ${s.strategy}, but no holder named ${name} was given to the replay`;
    if (gate === undefined) return `${scenario.file}:${s.pos.line}:${s.pos.col}: holder ${s.name} is written in TypeScript (${s.strategy}); replay it with runScenarioAsync`;
  }
  return undefined;
}

/** The user-written holders a replay may start, and where their failures go. */
interface UserHolders {
  readonly fns: Readonly<Record<string, UserHolderFn>>;
  readonly gate: SettleGate | undefined;
  readonly failed: (message: string) => void;
}

/** The replay's moving parts: clients, resources, and the etcdctl-like control client per member. */
class Replay implements AssertionContext, StepReplay {
  private readonly clients = new Map<string, ScenarioClient>();
  private readonly ctls = new Map<string, EtcdClient>();
  readonly resources = new Map<string, FencedResource>();
  readonly clientProfile: ClientProfile;
  private truth: HolderTruth | undefined;
  holders: HolderLedger | undefined;

  constructor(
    readonly cluster: Cluster,
    readonly trace: Trace,
    readonly labels: LabelBook,
    profile: Scenario['profile'],
    readonly bugs: BugSet,
    private readonly users: UserHolders,
  ) {
    this.clientProfile = CLIENT_PROFILES[profile];
  }

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
    stepEntry(s.kind).perform(s, this);
  }

  grant(label: string, ttl: number, id: bigint, via: string | undefined): void {
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
  withLease(label: string, op: string, fn: (id: bigint) => void): void {
    if (!this.labels.whenBound(label, fn)) this.stepError(op, this.labels.whyUnbound(label));
  }

  answer(op: string, lease?: bigint, key?: string): (res: unknown) => void {
    return (res) => {
      const base: Record<string, FieldValue> = { op, ...(key !== undefined ? { key } : {}) };
      if (isRpcError(res)) return this.emit('ctl', 'ctl-error', { ...base, err: (res as RpcError).name }, lease);
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

  startHolder(s: HolderStep, sc: ScenarioClient): void {
    this.truth ??= new HolderTruth(this.trace);
    this.holders ??= new HolderLedger(this.trace, this.cluster.sched);
    let resource = this.resources.get(s.resource);
    if (resource === undefined) {
      resource = new FencedResource(s.resource, this.cluster.sched, { trace: this.trace, strict: s.fence === 'strict' });
      this.resources.set(s.resource, resource);
    }
    const env = { client: sc.client, resource, trace: this.trace, truth: this.truth };
    if (isHolderStrategy(s.strategy)) {
      const spec = { name: s.name, strategy: s.strategy, key: s.key, ttlSeconds: s.ttlSeconds, writesPerSecond: s.writesPerSecond, marginUs: s.marginUs };
      return new Holder(s.intervalUs !== undefined ? { ...spec, intervalUs: s.intervalUs } : spec, env).start();
    }
    const fn = this.users.fns[s.strategy.slice('user:'.length)]!;
    startUserHolder(fn, { ...env, name: s.name, gate: this.users.gate! }, this.users.failed);
  }

  /** Runs `fn` on the client's own process: a paused client does it when resumed. */
  onClient(name: string, via: string | undefined, fn: (sc: ScenarioClient) => void): void {
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
