import { Process } from '../../clock/process.js';
import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';
import type { Cluster } from '../../cluster/cluster.js';
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
import { Holder, HolderLedger, HolderTruth, isHolderStrategy, startUserHolder } from '../../holder/index.js';
import type { BugSet } from '../../switches/bugs.js';
import type { Trace, TraceFields, TraceKind } from '../../trace/trace.js';
import { stepEntry } from '../step-kinds.js';
import type { ExpectStep, HolderStep, Scenario, Step } from '../types.js';
import { AnswerBook, txnOpAnswers, type Answer, type AnswerValues, type NamedChannel } from './answers.js';
import type { AssertionContext } from './assertions.js';
import type { LabelBook } from './labels.js';
import { SessionBook } from './sessions.js';
import { signalView, type SignalView } from './signal-verdicts.js';
import type { ScenarioClient, StepReplay } from './step-replay.js';
import type { UserHolders } from './user-holders.js';

/** What etcdctl's requests answer. */
type CtlResponse = ClientResponse | KeepAliveResponse;

/** etcdctl's --command-timeout. */
const COMMAND_TIMEOUT_US: Micros = 5 * MICROS_PER_SECOND;

/** A client of the scenario as an onlooker sees it: paused or not, and its keep-alive channels. */
export interface ClientView {
  readonly name: string;
  readonly paused: boolean;
  readonly keepAlives: ReadonlyArray<{ readonly lease: bigint; readonly alive: boolean }>;
}

/**
 * Performs a replay's steps and answers its assertions. It owns the moving parts: the scenario's clients,
 * resources and holders, and the etcdctl-like control client per member.
 */
export class StepExecutor implements AssertionContext, StepReplay {
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
    p.runFromOutside(p.generation, () => fn(sc));
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
