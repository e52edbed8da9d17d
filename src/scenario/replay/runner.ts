import { Process } from '../../clock/process.js';
import { RunStopped, type RunGuard } from '../../clock/run-guard.js';
import { Scheduler } from '../../clock/scheduler.js';
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { Cluster } from '../../cluster/cluster.js';
import type { ClusterTransport, RpcError } from '../../cluster/server/api.js';
import { isRpcError } from '../../cluster/server/api.js';
import { EtcdClient, CLIENT_PROFILES, type ClientProfile, type FencedResource } from '../../client/index.js';
import { invoke } from '../../client/invoke.js';
import { Marks } from '../../trace/marks.js';
import { Trace, type FieldValue } from '../../trace/trace.js';
import type { ExpectStep, Scenario, Step } from '../types.js';
import { describeAssertion } from './describe.js';
import { evaluate, type AssertionContext } from './assertions.js';
import { clusterConfigOf } from './cluster-config.js';
import { LabelBook } from './labels.js';
import { groupByTime } from '../group-by-time.js';
import type { BugSet } from '../../lessor/bugs.js';
import { stepEntry } from '../step-kinds.js';
import type { ScenarioClient, StepReplay } from './step-replay.js';
import { livelockThresholdOf } from './livelock.js';
import { runStopOf, type RunStop } from './stop.js';
import { signalView, type SignalView } from './signal-verdicts.js';

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
  /** An event budget, a poll hook (wall-clock timeout, progress); the livelock threshold overrides livelockThresholdOf. */
  readonly guard?: RunGuard;
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
  /** Set when a guard ended the run early; assertions after `stopped.atUs` were not evaluated. */
  readonly stopped?: RunStop;
  readonly passed: boolean;
}

/**
 * Replays a scenario: builds its cluster, performs each step at its virtual time (same-instant steps in
 * file order), evaluates every `expect` after all other events of its instant, and runs to the end.
 * Everything that happens is in the returned trace; nothing in the scenario can make this throw.
 */
export function runScenario(scenario: Scenario, opts: RunOptions = {}): RunResult {
  return startScenario(scenario, opts).finish();
}

/** A client of the scenario as an onlooker sees it: paused or not, and its keep-alive channels. */
export interface ClientView {
  readonly name: string;
  readonly paused: boolean;
  readonly keepAlives: ReadonlyArray<{ readonly lease: bigint; readonly alive: boolean }>;
}

/**
 * A replay that can stop at any virtual instant and go on later (the playground plays one this way).
 * `advanceTo(a)` then `advanceTo(b)` leaves exactly the state and trace of `advanceTo(b)`: the scheduler
 * only moves time by popping events, so stopping in between changes nothing.
 */
export interface ScenarioRun {
  /** Performs every step at or before `t` and runs the cluster to `t` (never past the scenario's end). */
  advanceTo(t: Micros): void;
  /** Where the replay stands: the cluster's clock, or the scenario's end once finished. */
  readonly now: Micros;
  readonly endUs: Micros;
  readonly done: boolean;
  readonly cluster: Cluster | undefined;
  readonly trace: Trace;
  clients(): ClientView[];
  /** Runs to the end and returns the result; further calls return the same result. */
  finish(): RunResult;
  /** The result so far (assertions evaluated up to `now`). */
  result(): RunResult;
}

export function startScenario(scenario: Scenario, opts: RunOptions = {}): ScenarioRun {
  const seed = opts.seed ?? scenario.seed;
  const profile = opts.profile ?? scenario.profile;
  const trace = opts.trace ?? new Trace();
  const marks = new Marks();
  const labels = new LabelBook();
  const assertions: AssertionResult[] = [];
  const result = (setupError: string | undefined, cluster: Cluster | undefined, stopped?: RunStop): RunResult => ({
    scenario,
    seed,
    profile,
    assertions,
    setupError,
    trace,
    marks,
    labels,
    cluster,
    ...(stopped !== undefined ? { stopped } : {}),
    passed: setupError === undefined && stopped === undefined && assertions.every((a) => a.pass),
  });
  const stopped = (setupError: string, cluster: Cluster | undefined): ScenarioRun => ended(result(setupError, cluster), trace);

  const cfg = clusterConfigOf(scenario, profile, seed);
  if (typeof cfg === 'string') return stopped(cfg, undefined);
  const sched = new Scheduler(-BOOTSTRAP_US);
  let cluster: Cluster;
  try {
    cluster = new Cluster(cfg, { sched, trace, marks });
  } catch (e) {
    // Settings the parser let through but etcd would refuse at start-up: report, never crash.
    return stopped(`the cluster cannot start with these settings: ${e instanceof Error ? e.message : String(e)}`, undefined);
  }
  opts.onCluster?.(cluster);
  sched.setGuard({ maxEventsAtOneInstant: livelockThresholdOf(scenario), ...opts.guard });
  return replaySteps(scenario, cluster, { trace, labels, profile, bugs: cfg.bugs, assertions }, result);
}

/** A run that is over before it started (bad settings, no leader at 0, a guard tripped during boot). */
function ended(r: RunResult, trace: Trace): ScenarioRun {
  const now = r.stopped?.atUs ?? r.scenario.durationUs;
  return { advanceTo: () => {}, now, endUs: r.scenario.durationUs, done: true, cluster: r.cluster, trace, clients: () => [], finish: () => r, result: () => r };
}

interface ReplayState {
  readonly trace: Trace;
  readonly labels: LabelBook;
  readonly profile: Scenario['profile'];
  readonly bugs: BugSet;
  readonly assertions: AssertionResult[];
}

function replaySteps(
  scenario: Scenario,
  cluster: Cluster,
  { trace, labels, profile, bugs, assertions }: ReplayState,
  result: (setupError: string | undefined, cluster: Cluster | undefined, stopped?: RunStop) => RunResult,
): ScenarioRun {
  let finished: RunResult | undefined;
  // A guard (event budget, wall-clock timeout, livelock) ends the run wherever it trips; the result says so.
  const guarded = (work: () => void): void => {
    if (finished !== undefined) return;
    try {
      work();
    } catch (e) {
      if (!(e instanceof RunStopped)) throw e;
      finished = result(undefined, cluster, runStopOf(e, trace));
    }
  };
  guarded(() => cluster.runUntil(0));
  if (finished !== undefined) return ended(finished, trace);
  const first = cluster.leader();
  if (first?.name !== 'n1' || !first.lessor.isPrimary()) {
    return ended(result(`the cluster did not elect n1 within ${BOOTSTRAP_US / MICROS_PER_SECOND} s before time 0 (check latency and fsync)`, cluster), trace);
  }
  const replay = new Replay(cluster, trace, labels, profile, bugs, scenario.alerts);
  const groups = groupByTime(scenario.steps);
  const endUs = scenario.durationUs;
  let next = 0;
  const advanceTo = (t: Micros): void =>
    guarded(() => {
      const until = Math.min(t, endUs);
      for (; next < groups.length && groups[next]![0] <= until; next++) {
        const [at, steps] = groups[next]!;
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
      if (until > cluster.now()) cluster.runUntil(until);
    });
  return {
    advanceTo,
    get now() {
      return finished !== undefined && finished.stopped === undefined ? Math.max(endUs, cluster.now()) : cluster.now();
    },
    endUs,
    get done() {
      return finished !== undefined;
    },
    cluster,
    trace,
    clients: () => replay.clientViews(),
    finish: () => {
      advanceTo(endUs);
      guarded(() => cluster.runUntil(Math.max(endUs, cluster.now())));
      finished ??= result(undefined, cluster);
      return finished;
    },
    result: () => finished ?? result(undefined, cluster),
  };
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
    private readonly alerts: Scenario['alerts'],
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

  signalsNow(): SignalView | string {
    // A trace that keeps no events (campaigns) has nothing to record signals from.
    if (this.trace.length > 0 && this.trace.events.length === 0) return 'this run keeps no trace events to record signals from';
    return signalView(this.trace.events, this.cluster.now(), this.alerts);
  }

  resource(name: string): { accepted: number; rejected: number } | undefined {
    const r = this.resources.get(name);
    return r === undefined ? undefined : { accepted: r.accepted, rejected: r.rejected };
  }

  clientViews(): ClientView[] {
    return [...this.clients].map(([name, sc]) => ({
      name,
      paused: sc.client.process.paused,
      keepAlives: [...sc.keepAlives].map(([lease, ch]) => ({ lease, alive: ch.alive })),
    }));
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
