import { Process } from '../../clock/process.js';
import { RunStopped, type RunGuard } from '../../clock/run-guard.js';
import { Scheduler } from '../../clock/scheduler.js';
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import { Cluster } from '../../cluster/cluster.js';
import type { ClientResponse, ClusterTransport, KeepAliveResponse, RpcError } from '../../cluster/server/api.js';
import { isRpcError } from '../../cluster/server/api.js';
import {
  EtcdClient,
  CLIENT_PROFILES,
  FencedResource,
  type ClientProfile,
  type KeepAliveChannel,
  type LeaseGrantResponse,
} from '../../client/index.js';
import { invoke } from '../../client/invoke.js';
import {
  Holder,
  HolderLedger,
  HolderTruth,
  isHolderStrategy,
  runUntilSettled,
  SettleGate,
  startUserHolder,
  type UserHolderFn,
} from '../../holder/index.js';
import { Marks } from '../../trace/marks.js';
import { Trace, type TraceFields, type TraceKind } from '../../trace/trace.js';
import type { ExpectStep, HolderStep, Scenario, Step } from '../types.js';
import { describeAssertion } from './describe.js';
import { evaluate, type AssertionContext } from './assertions.js';
import { clusterConfigOf } from './cluster-config.js';
import { LabelBook } from './labels.js';
import { SessionBook } from './sessions.js';
import { groupByTime } from '../group-by-time.js';
import type { BugSet } from '../../lessor/bugs.js';
import { stepEntry } from '../step-kinds.js';
import type { ScenarioClient, StepReplay } from './step-replay.js';
import { livelockThresholdOf } from './livelock.js';
import { runStopOf, type RunStop } from './stop.js';
import { signalView, type SignalView } from './signal-verdicts.js';
import { AnswerBook, txnOpAnswers, type Answer, type AnswerValues, type NamedChannel } from './answers.js';

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
  /**
   * An event budget, a poll hook (wall-clock timeout, progress); the livelock threshold overrides livelockThresholdOf.
   */
  readonly guard?: RunGuard;
  /** Holders written in TypeScript, for `strategy: user:<name>` (only `runScenarioAsync` runs them). */
  readonly userHolders?: Readonly<Record<string, UserHolderFn>>;
  /**
   * The endpoints a scenario client gets: every member, starting with its first `via` and failing over
   * in order ('all', the default), or only that member ('one': as `etcdctl --endpoints=URL`, which the
   * real-etcd driver runs, so `diff` gives both sides the same endpoints).
   */
  readonly clientEndpoints?: 'all' | 'one';
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

/**
 * `runScenario` for scenarios with holders written as async functions (`strategy: user:<name>` and
 * `opts.userHolders`): after every event that settled one of their promises, their continuations run
 * before virtual time moves on. Same seed, same trace.
 */
export async function runScenarioAsync(scenario: Scenario, opts: RunOptions = {}): Promise<RunResult> {
  const gate = new SettleGate();
  const replay = replayScenario(scenario, opts, gate, new RunState(scenario, opts));
  for (let r = replay.next(); ; ) {
    if (r.done === true) return r.value;
    try {
      await runUntilSettled(r.value.cluster.sched, r.value.untilUs, gate);
      r = replay.next();
    } catch (e) {
      if (!(e instanceof RunStopped)) throw e;
      r = replay.throw(e);
    }
  }
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
  const st = new RunState(scenario, opts);
  const replay = replayScenario(scenario, opts, undefined, st);
  let r = replay.next();
  const endUs = scenario.durationUs;
  // Runs the cluster toward each time the replay asks for, never past `t`; the result once it has ended.
  const drive = (t: Micros): RunResult | undefined => {
    while (r.done !== true) {
      const { cluster, untilUs } = r.value;
      try {
        if (untilUs > t) {
          if (t > cluster.now()) cluster.runUntil(t);
          return undefined;
        }
        cluster.runUntil(untilUs);
        r = replay.next();
      } catch (e) {
        if (!(e instanceof RunStopped)) throw e;
        r = replay.throw(e);
      }
    }
    return r.value;
  };
  return {
    advanceTo: (t) => {
      drive(Math.min(t, endUs));
    },
    get now() {
      const c = st.cluster;
      if (c === undefined) return endUs;
      return r.done === true && r.value.stopped === undefined ? Math.max(endUs, c.now()) : c.now();
    },
    endUs,
    get done() {
      return r.done === true;
    },
    get cluster() {
      return st.cluster;
    },
    trace: st.trace,
    clients: () => st.replay?.clientViews() ?? [],
    // Driven without a bound, the replay always ends.
    finish: () => drive(Infinity)!,
    result: () => (r.done === true ? r.value : st.result(undefined)),
  };
}

/** How far the replay wants virtual time run before it goes on. */
interface RunTo {
  readonly cluster: Cluster;
  readonly untilUs: Micros;
}

/** What a replay has gathered so far; `result` makes a RunResult of it at any moment. */
class RunState {
  readonly seed: number;
  readonly profile: Scenario['profile'];
  readonly trace: Trace;
  readonly marks = new Marks();
  readonly labels = new LabelBook();
  readonly assertions: AssertionResult[] = [];
  readonly holderErrors: string[] = [];
  cluster: Cluster | undefined;
  replay: Replay | undefined;

  constructor(
    readonly scenario: Scenario,
    opts: RunOptions,
  ) {
    this.seed = opts.seed ?? scenario.seed;
    this.profile = opts.profile ?? scenario.profile;
    this.trace = opts.trace ?? new Trace();
  }

  result(setupError: string | undefined, stopped?: RunStop): RunResult {
    const { scenario, seed, profile, assertions, holderErrors, trace, marks, labels, cluster } = this;
    return {
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
      ...(stopped !== undefined ? { stopped } : {}),
      passed:
        setupError === undefined &&
        stopped === undefined &&
        holderErrors.length === 0 &&
        assertions.every((a) => a.pass),
    };
  }
}

/**
 * The replay as a generator: it yields each virtual time it needs the cluster run to, and the driver
 * (synchronous, asynchronous for user holders, or stepwise for the playground) runs it there. A guard
 * that trips in the driver is thrown back in, and the replay ends with a stopped result.
 */
function* replayScenario(
  scenario: Scenario,
  opts: RunOptions,
  gate: SettleGate | undefined,
  st: RunState,
): Generator<RunTo, RunResult, void> {
  const cfg = clusterConfigOf(scenario, st.profile, st.seed);
  if (typeof cfg === 'string') return st.result(cfg);
  const missing = missingUserHolder(scenario, opts, gate);
  if (missing !== undefined) return st.result(missing);
  const sched = new Scheduler(-BOOTSTRAP_US);
  let cluster: Cluster;
  try {
    cluster = new Cluster(cfg, { sched, trace: st.trace, marks: st.marks });
  } catch (e) {
    // Settings the parser let through but etcd would refuse at start-up: report, never crash.
    return st.result(`the cluster cannot start with these settings: ${e instanceof Error ? e.message : String(e)}`);
  }
  st.cluster = cluster;
  opts.onCluster?.(cluster);
  sched.setGuard({ maxEventsAtOneInstant: livelockThresholdOf(scenario), ...opts.guard });
  try {
    yield { cluster, untilUs: 0 };
    const first = cluster.leader();
    if (first?.name !== 'n1' || !first.lessor.isPrimary()) {
      return st.result(
        `the cluster did not elect n1 within ${BOOTSTRAP_US / MICROS_PER_SECOND}` +
          ` s before time 0 (check latency and fsync)`,
      );
    }
    const users = { fns: opts.userHolders ?? {}, gate, failed: (m: string) => st.holderErrors.push(m) };
    const replay = new Replay(
      cluster,
      st.trace,
      st.labels,
      st.profile,
      cfg.bugs,
      scenario.alerts,
      users,
      opts.clientEndpoints ?? 'all',
    );
    st.replay = replay;
    for (const [at, steps] of groupByTime(scenario.steps)) {
      yield { cluster, untilUs: at };
      for (const s of steps) if (s.kind !== 'expect') replay.perform(s);
      yield { cluster, untilUs: at }; // what those steps set off at this same instant
      for (const s of steps) {
        if (s.kind !== 'expect') continue;
        const v = evaluate(s.assertion, replay);
        const text = describeAssertion(s.assertion);
        st.assertions.push({ step: s, atUs: at, pass: v.pass, text, got: v.got });
        replay.emit('sim', v.pass ? 'expect-pass' : 'expect-fail', { line: s.pos.line, expect: text, got: v.got });
      }
    }
    yield { cluster, untilUs: Math.max(scenario.durationUs, cluster.now()) };
    return st.result(undefined);
  } catch (e) {
    if (e instanceof RunStopped) return st.result(undefined, runStopOf(e, st.trace));
    throw e;
  }
}

/** A `user:<name>` holder the options do not supply, or that the synchronous replay cannot run. */
function missingUserHolder(scenario: Scenario, opts: RunOptions, gate: SettleGate | undefined): string | undefined {
  for (const s of scenario.steps) {
    if (s.kind !== 'holder' || isHolderStrategy(s.strategy)) continue;
    const name = s.strategy.slice('user:'.length);
    if (opts.userHolders?.[name] === undefined)
      return (
        `${scenario.file}:${s.pos.line}:${s.pos.col}: holder ${s.name} uses ` +
        `strategy ${s.strategy}, but no holder named ${name} was given to the replay`
      );
    if (gate === undefined)
      return (
        `${scenario.file}:${s.pos.line}:${s.pos.col}: holder ${s.name} is ` +
        `written in TypeScript (${s.strategy}); replay it with runScenarioAsync`
      );
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
  private readonly answers = new AnswerBook();
  private readonly channels = new Map<string, NamedChannel>();
  private readonly channelWaiters = new Map<string, ((c: NamedChannel) => void)[]>();
  readonly resources = new Map<string, FencedResource>();
  readonly sessions = new SessionBook();
  readonly clientProfile: ClientProfile;
  private truth: HolderTruth | undefined;
  holders: HolderLedger | undefined;
  private readonly holderClients = new Set<string>();

  constructor(
    readonly cluster: Cluster,
    readonly trace: Trace,
    readonly labels: LabelBook,
    profile: Scenario['profile'],
    readonly bugs: BugSet,
    private readonly alerts: Scenario['alerts'],
    private readonly users: UserHolders,
    private readonly clientEndpoints: 'all' | 'one',
  ) {
    this.clientProfile = CLIENT_PROFILES[profile];
  }

  emit<K extends TraceKind>(member: string, kind: K, fields: TraceFields[K], lease?: bigint): void {
    this.trace.emit(
      lease === undefined
        ? { t: this.cluster.now(), member, kind, fields }
        : { t: this.cluster.now(), member, kind, lease, fields },
    );
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
    if (this.trace.length > 0 && this.trace.events.length === 0)
      return 'this run keeps no trace events to record signals from';
    return signalView(this.trace.events, this.cluster.now(), this.alerts);
  }

  resource(name: string): { accepted: number; rejected: number } | undefined {
    const r = this.resources.get(name);
    return r === undefined ? undefined : { accepted: r.accepted, rejected: r.rejected };
  }

  /** The scenario's clients as the playground shows them; a holder's client is the holder's own. */
  clientViews(): ClientView[] {
    return [...this.clients]
      .filter(([name]) => !this.holderClients.has(name))
      .map(([name, sc]) => ({
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

  grant(label: string, ttl: number, id: bigint, via: string | undefined, as?: string, client?: string): void {
    if (client !== undefined) return this.onClient(client, via, (sc) => this.grantBy(sc.client, label, ttl, id, as));
    this.grantBy(this.ctl(via), label, ttl, id, as);
  }

  private grantBy(ctl: EtcdClient, label: string, ttl: number, id: bigint, as: string | undefined): void {
    const named = this.answerTo(as, 'grant');
    const answered = (res: LeaseGrantResponse | RpcError): void => {
      if (isRpcError(res)) {
        this.labels.fail(label, `the grant of ${label} failed: ${res.name}`);
        this.emit(ctl.name, 'ctl-error', { op: 'grant', label, err: res.name });
        return named({ error: res.name });
      }
      this.labels.bind(label, res.id);
      this.emit(ctl.name, 'ctl-granted', { label, ttl: res.ttl }, res.id);
      named({ ttl: res.ttl, id: res.id });
    };
    if (id === 0n) ctl.grant(ttl, answered);
    else invoke(ctl.core, { op: 'LeaseGrant', ttl, id }, 'repeatable', answered);
  }

  /** Runs `fn` with the lease's ID, now or once its grant is answered. */
  withLease(label: string, op: string, fn: (id: bigint) => void): void {
    if (!this.labels.whenBound(label, fn)) this.stepError(op, this.labels.whyUnbound(label));
  }

  answer(op: string, lease?: bigint, key?: string, as?: string): (res: CtlResponse | RpcError) => void {
    const named = this.answerTo(as, op);
    return (res) => {
      const base = { op, ...(key !== undefined ? { key } : {}) };
      if (isRpcError(res)) {
        this.emit('ctl', 'ctl-error', { ...base, err: res.name }, lease);
        return named({ error: res.name });
      }
      this.emit('ctl', 'ctl-ok', { ...base, ...summarize(res) }, lease);
      named(answerValues(res));
    };
  }

  answerTo(as: string | undefined, op: string): (outcome: { error: string } | AnswerValues) => void {
    if (as === undefined) return () => undefined;
    const record = this.answers.sent(as, op, () => this.cluster.now());
    return (outcome) => {
      const a = record(outcome);
      const err = a.error !== undefined ? { err: a.error } : {};
      this.emit('ctl', 'ctl-answer', { name: as, op, ...err, took: (a.answeredUs ?? a.sentUs) - a.sentUs });
    };
  }

  namedAnswer(name: string): Answer | undefined {
    return this.answers.get(name);
  }

  nameChannel(name: string, client: string, ch: KeepAliveChannel, unreadBuffer: number | undefined): void {
    const named = { ch, client, ...(unreadBuffer !== undefined ? { unreadBuffer } : {}) };
    this.channels.set(name, named);
    for (const fn of this.channelWaiters.get(name) ?? []) fn(named);
    this.channelWaiters.delete(name);
    const answered = this.answerTo(name, 'keepalive');
    // KeepAlive itself fails only on a halted loop (a closed client); otherwise the reader's first receive.
    if (ch.closeReason === 'client-closed') return answered({ error: 'ErrKeepAliveHalted' });
    if (unreadBuffer === 0) return;
    let first = true;
    ch.onResponse((r) => {
      if (first) answered({ ttl: r.ttl, id: r.id, revision: r.header.revision });
      first = false;
    });
  }

  channel(name: string, fn: (c: NamedChannel) => void): void {
    const c = this.channels.get(name);
    if (c !== undefined) return fn(c);
    this.channelWaiters.set(name, [...(this.channelWaiters.get(name) ?? []), fn]);
  }

  namedChannel(name: string): NamedChannel | undefined {
    return this.channels.get(name);
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
      c = new EtcdClient({
        name,
        process,
        transport,
        prng: this.cluster.prng.fork(name),
        trace: this.trace,
        endpoints: [target],
        requestTimeoutUs: COMMAND_TIMEOUT_US,
      });
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
      // Pinned to `via` on first use (else n1), failing over to the others in order (unless given only it).
      const start = via !== undefined ? names.indexOf(via) : 0;
      const endpoints =
        this.clientEndpoints === 'one' ? [names[start]!] : [...names.slice(start), ...names.slice(0, start)];
      sc = {
        client: new EtcdClient({
          name,
          process,
          transport,
          prng: this.cluster.prng.fork(name),
          trace: this.trace,
          endpoints,
        }),
        keepAlives: new Map(),
        locks: new Map(),
      };
      this.clients.set(name, sc);
    }
    return sc;
  }

  startHolder(s: HolderStep, sc: ScenarioClient): void {
    this.holderClients.add(s.client);
    this.truth ??= new HolderTruth(this.trace);
    this.holders ??= new HolderLedger(this.trace, this.cluster.sched);
    let resource = this.resources.get(s.resource);
    if (resource === undefined) {
      resource = new FencedResource(s.resource, this.cluster.sched, {
        trace: this.trace,
        strict: s.fence === 'strict',
      });
      this.resources.set(s.resource, resource);
    }
    const env = { client: sc.client, resource, trace: this.trace, truth: this.truth };
    if (isHolderStrategy(s.strategy)) {
      const spec = {
        name: s.name,
        strategy: s.strategy,
        key: s.key,
        ttlSeconds: s.ttlSeconds,
        writesPerSecond: s.writesPerSecond,
        marginUs: s.marginUs,
        ...(s.intervalUs !== undefined ? { intervalUs: s.intervalUs } : {}),
        ...(s.ttlCheckIntervalUs !== undefined ? { ttlCheckIntervalUs: s.ttlCheckIntervalUs } : {}),
      };
      return new Holder(spec, env).start();
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

/** What a named answer carried, for `expect: { answer }`. */
function answerValues(res: CtlResponse): AnswerValues {
  return {
    ...('ttl' in res ? { ttl: res.ttl } : {}),
    ...('grantedTTL' in res ? { grantedTTL: res.grantedTTL } : {}),
    ...('id' in res ? { id: res.id } : {}),
    ...('ids' in res ? { leases: res.ids } : {}),
    ...('grantedTTL' in res ? { keys: res.keys } : {}),
    ...('succeeded' in res ? { succeeded: res.succeeded, responses: txnOpAnswers(res.responses) } : {}),
    revision: res.header.revision,
  };
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
