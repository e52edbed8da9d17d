import type { Prng } from '../../clock/prng.js';
import type { Process, ProcessTimer, Receiver } from '../../clock/process.js';
import type { Micros } from '../../clock/time.js';
import type { ClusterObserver } from '../observer.js';
import { resolveBehaviour, type Behaviour } from '../../switches/behaviour.js';
import { ErrNotPrimary } from '../../lessor/errors.js';
import { createLessor, type Checkpointer, type Lessor } from '../../lessor/lessor.js';
import type { Lease } from '../../lessor/lease.js';
import type { Marks } from '../../trace/marks.js';
import type { Trace, TraceFields, TraceKind } from '../../trace/trace.js';
import { restore, type LeaseIndex, type MvccStore } from '../mvcc/index.js';
import { Packet, type Network, type PacketHandler } from '../network/network.js';
import type { Entry } from '../raft/entry.js';
import { RaftNode, type SoftState } from '../raft/raft-node.js';
import type { RaftTransport } from '../raft/transport.js';
import type { ResponseHeader } from './api.js';
import { applyRequest, type ApplyResult } from './applier.js';
import { deriveTimings, type DerivedTimings, type ServerConfig } from './config.js';
import { Deadline } from './deadline.js';
import type { Disk } from './disk.js';
import {
  ErrLeaderChanged,
  ErrProposalDropped,
  ErrProposeDeadline,
  ErrTimeout,
  ErrTimeoutWaitAppliedIndex,
  type AnyServerError,
} from './errors.js';
import { IdGenerator, SIM_EPOCH_UNIX_MS } from './id-gen.js';
import type { RaftRequest, RaftRequestBody } from './raft-request.js';

/** adjustTicks looks for active peers every 50 ms for up to rafthttp.ConnReadTimeout (5 s). */
const ADJUST_TICKS_POLL_US = 50_000;
const ADJUST_TICKS_POLLS = 100;

/** Finds the current incarnation of a member's server (a restart replaces the object). */
/** A member's current server; a server stays its member's until it stops (only a stopped one is replaced). */
export type ServerRegistry = (name: string) => EtcdServer | undefined;

export interface ServerDeps {
  readonly name: string;
  /** 1-based position in the cluster: the member ID the request-ID generator uses. */
  readonly memberNumber: number;
  readonly members: readonly string[];
  /** The member's gRPC and lessor goroutines. */
  readonly process: Process;
  /** The raft loop (ticks, messages, proposals, soft state): stalls on its own when fsync hangs. */
  readonly raftProcess: Process;
  /** The apply loop: can fall behind the commit index on its own. */
  readonly applyProcess: Process;
  readonly network: Network;
  readonly transport: RaftTransport;
  readonly registry: ServerRegistry;
  readonly prng: Prng;
  readonly trace: Trace;
  readonly marks: Marks;
  readonly disk: Disk;
  readonly config: ServerConfig;
  /** An onlooker of run-loop passes (the playground's picture); none by default. */
  readonly observer?: ClusterObserver;
}

/** A stream the member serves (keep-alive, watch) that must end when the member stops or loses its leader. */
export interface ServedStream {
  readonly requireLeader: boolean;
  /** Ends the stream with the error the client should see. */
  abort(reason: 'no-leader' | 'stopped'): void;
}

/** An empty entry applied while leader promotes the lessor (etcd's applyEntryNormal). */
const isNoop = (e: Entry): boolean => e.data === null || e.data === undefined;

/**
 * One etcd member (etcdserver.EtcdServer): raft, the lessor and the keyspace wired together as etcd
 * wires them. Requests that change state are raft proposals applied on every member in log order; the
 * lessor is Promoted when this member applies its own term's empty entry while leader and Demoted on
 * every soft-state change that leaves it not leader.
 */
export class EtcdServer {
  readonly name: string;
  readonly config: ServerConfig;
  readonly timings: DerivedTimings;
  /** The profile, bugs and fixes, as flags. */
  readonly behaviour: Behaviour;
  readonly lessor: Lessor;
  readonly store: MvccStore;
  readonly raft: RaftNode;
  readonly proc: Process;
  readonly raftProc: Process;
  readonly applyProc: Process;
  readonly disk: Disk;
  private readonly deps: ServerDeps;
  private readonly idGen: IdGenerator;
  /** etcd's wait registry: the origin member's proposals still waiting for their result, by request ID. */
  private readonly wait = new Map<bigint, Proposal>();
  /** Proposals whose Propose is blocked because this member knows no leader, in the order they came. */
  private readonly heldProposals = new Map<bigint, RaftRequest>();
  private readonly applyWaiters: Array<{ readonly index: number; readonly fn: () => void }> = [];
  private readonly streams = new Set<ServedStream>();
  private streamRng: Prng | undefined;
  private appliedIdx: number;
  private noLeaderCnt = 0;
  private stoppedFlag = false;
  private lastHeader: ResponseHeader | undefined;
  private lastPeer: EtcdServer | undefined;
  /** One timer for the require-leader check, set again each election timeout. */
  private readonly leaderMonitor: ProcessTimer;

  constructor(deps: ServerDeps) {
    this.deps = deps;
    this.name = deps.name;
    this.config = deps.config;
    this.proc = deps.process;
    this.raftProc = deps.raftProcess;
    this.applyProc = deps.applyProcess;
    this.disk = deps.disk;
    this.timings = deriveTimings(deps.config);
    const c = deps.config;
    this.behaviour = resolveBehaviour(c.profile, c.bugs, c.fixes);
    this.idGen = new IdGenerator(deps.memberNumber, SIM_EPOCH_UNIX_MS + Math.trunc(deps.process.wallNow() / 1000));
    // The lessor is recovered before the keyspace, so restored keys can attach to their leases.
    this.lessor = createLessor(
      deps.process,
      {
        minLeaseTTLSeconds: this.timings.minLeaseTTL,
        checkpointIntervalUs: c.checkpointIntervalUs,
        expiredLeasesRetryIntervalUs: c.expiredLeaseRetryUs ?? this.timings.reqTimeoutUs,
        leaseRevokeRate: c.leaseRevokeRate,
        checkpointPersist: c.leaseCheckpointPersist,
        clusterVersion: c.clusterVersion,
        profile: c.profile,
        bugs: c.bugs,
        fixes: c.fixes,
      },
      {
        member: deps.name,
        bucket: deps.disk.leases,
        trace: deps.trace,
        marks: deps.marks,
        onRunLoopPass: runLoopObserver(deps),
      },
    );
    const lessor = this.lessor;
    const leaseIndex: LeaseIndex = {
      lookup: (id) => lessor.lookup(id) !== undefined,
      getLease: (key) => lessor.getLease(key),
      attach: (id, keys) => lessor.attach(id, keys),
      detach: (id, keys) => lessor.detach(id, keys),
    };
    this.store = restore(deps.disk.kv, leaseIndex, {
      member: deps.name,
      trace: deps.trace,
      now: () => deps.process.now(),
    });
    lessor.setRangeDeleter(this.store.rangeDeleter);
    if (c.leaseCheckpoint) lessor.setCheckpointer(this.checkpointer);
    lessor.expiredLeasesC.onReady = () => this.proc.after(0, () => this.receiveExpired());

    this.appliedIdx = deps.disk.consistentIndex;
    this.raft = new RaftNode({
      id: deps.name,
      members: deps.members,
      process: deps.raftProcess,
      transport: deps.transport,
      prng: deps.prng,
      storage: deps.disk.wal,
      config: {
        heartbeatMs: c.heartbeatMs,
        electionMs: c.electionMs,
        preVote: c.preVote,
        checkQuorum: true,
        fsyncUs: c.fsyncUs,
      },
      trace: deps.trace,
      appliedIndex: deps.disk.consistentIndex,
      // Committed entries queue up for the apply loop, which runs at once unless it is stalled.
      onApply: (e) => this.applyProc.handOff(this.applyProc.generation, this.applyLoop, e),
      onSoftState: (s) => this.onSoftState(s),
      onElectionClock: electionClockObserver(deps),
    });
    this.leaderMonitor = this.proc.timer(() => this.monitorLeader());
    this.leaderMonitor.arm(this.timings.electionTimeoutUs);
  }

  /**
   * adjustTicks (etcdserver/server.go, run by Start): a single member fast-forwards electionTicks − 1
   * ticks at once; with peers and --initial-election-tick-advance, it looks every 50 ms for up to
   * rafthttp's ConnReadTimeout (5 s) and, once more than one peer is active, fast-forwards
   * electionTicks − 2, so its first election comes within a few ticks instead of a whole timeout.
   * `activePeers` counts the peers whose stream to this member would be up (running, reachable).
   */
  adjustTicks(members: number, activePeers: () => number): void {
    const electionTicks = Math.round(this.timings.electionTimeoutUs / this.timings.tickUs);
    const advance = (ticks: number, peers: number): void =>
      this.onRaftLoop(() => {
        this.emit('server-tick-advance', { ticks, peers });
        this.raft.advanceTicks(ticks);
      });
    if (members <= 1) return advance(electionTicks - 1, 0);
    if (!this.config.initialElectionTickAdvance) return;
    let polls = 0;
    const poll = (): void => {
      if (this.stoppedFlag) return;
      const peers = activePeers();
      if (peers > 1) return advance(electionTicks - 2, peers);
      if (++polls < ADJUST_TICKS_POLLS) this.proc.after(ADJUST_TICKS_POLL_US, poll);
    };
    this.proc.after(ADJUST_TICKS_POLL_US, poll);
  }

  // ---- State -----------------------------------------------------------------------------------

  get stopped(): boolean {
    return this.stoppedFlag;
  }

  get appliedIndex(): number {
    return this.appliedIdx;
  }

  /** isLeader(): raft's soft state names this member as leader. */
  isLeader(): boolean {
    return this.raft.leader === this.name;
  }

  leader(): string | undefined {
    return this.raft.leader;
  }

  /**
   * The header as of now. Headers are read-only values, so consecutive responses share one object
   * until the revision or term moves (a keep-alive stream answers thousands with the same header).
   */
  header(): ResponseHeader {
    const h = this.lastHeader;
    const revision = this.store.currentRevision;
    const raftTerm = this.raft.term;
    if (h !== undefined && h.revision === revision && h.raftTerm === raftTerm) return h;
    return (this.lastHeader = { memberId: this.name, revision, raftTerm });
  }

  /** A member's current server. The last answer is kept: a server stays its member's until it stops. */
  registry(name: string): EtcdServer | undefined {
    const p = this.lastPeer;
    if (p !== undefined && p.name === name && !p.stopped) return p;
    return (this.lastPeer = this.deps.registry(name));
  }

  get network(): Network {
    return this.deps.network;
  }

  emit<K extends TraceKind>(kind: K, fields: TraceFields[K], lease?: bigint): void {
    const t = this.deps.trace;
    if (!t.enabled) return;
    t.emit(
      lease === undefined
        ? { t: this.proc.now(), member: this.name, kind, fields }
        : { t: this.proc.now(), member: this.name, kind, lease, fields },
    );
  }

  /** Allocates a lease ID as LeaseGrant does for ID 0: the next request ID, masked to 63 bits. */
  allocateLeaseId(): bigint {
    let id = 0n;
    while (id === 0n) id = this.idGen.next() & ((1n << 63n) - 1n);
    return id;
  }

  // ---- Raft plumbing -----------------------------------------------------------------------------

  /**
   * raftRequestOnce: proposes `body` and calls back with the local apply result, or ErrTimeout after
   * ReqTimeout. A follower hands the proposal to the leader it knows (raft's MsgProp forwarding); with no
   * leader Propose blocks (raft/node.go stops reading proposals) until one is known, then goes on, or
   * fails with the context's DeadlineExceeded at ReqTimeout; a transferring leader refuses it at once.
   * `leaderTerm`: the term the caller confirmed it leads (the proposed fix's lessor proposals).
   */
  raftRequest(body: RaftRequestBody, cb: (r: ApplyResult) => void, leaderTerm?: number): void {
    const req = { ...body, reqId: this.idGen.next(), origin: this.name } as RaftRequest;
    const d = new Deadline(this.proc, this.timings.reqTimeoutUs, () => {
      this.wait.delete(req.reqId);
      cb({ ok: false, err: this.heldProposals.delete(req.reqId) ? ErrProposeDeadline : ErrTimeout });
    });
    const p = new Proposal(req, cb, leaderTerm, d);
    this.wait.set(req.reqId, p);
    // Proposals go through the raft loop: a stalled loop holds them and hands on, when it resumes, those
    // whose caller is still waiting (Propose returns with the context's error otherwise).
    this.raftProc.handOff(this.raftProc.generation, this.proposalLoop, p);
  }

  /** The raft loop's side of `raftRequest`. */
  private readonly proposalLoop: Receiver<Proposal> = {
    receive: (p) => {
      if (this.stoppedFlag || !p.deadline.open) return;
      // Proposed fix: a proposal the lessor made as leader of `leaderTerm` is not forwarded once that
      // term is over; a new leader would apply it after its own promotion.
      if (p.leaderTerm !== undefined && (this.raft.role !== 'leader' || this.raft.term !== p.leaderTerm)) {
        this.wait.delete(p.req.reqId);
        p.settle({ ok: false, err: ErrLeaderChanged });
        return;
      }
      this.propose(p.req);
    },
  };

  /** Runs `fn` on the raft loop (held while it is stalled or the member paused). */
  onRaftLoop(fn: () => void): void {
    this.raftProc.runFromOutside(this.raftProc.generation, () => {
      if (!this.stoppedFlag) fn();
    });
  }

  private propose(req: RaftRequest): void {
    if (this.raft.role === 'leader') {
      // Propose waits for raft's verdict (stepWait): a leader transferring leadership drops the proposal
      // and the request fails at once with ErrProposalDropped, not at its timeout.
      if ('error' in this.raft.propose(req)) this.answer(req, { ok: false, err: ErrProposalDropped });
      return;
    }
    const leader = this.raft.leader;
    if (leader === undefined) {
      this.heldProposals.set(req.reqId, req);
      return;
    }
    if (leader === this.name) return;
    this.network.send(this.name, leader, 'peer', new Packet(this.forwardedProposals, req, undefined));
  }

  /** A leader is known again: the blocked Propose calls go on, oldest first, those still waited for. */
  private releaseHeldProposals(): void {
    const held = [...this.heldProposals.values()];
    this.heldProposals.clear();
    for (const req of held) if (this.wait.has(req.reqId)) this.propose(req);
  }

  /** A proposal forwarded to the leader (`arg`) is handed to its server; a dead leader loses it. */
  private readonly forwardedProposals: PacketHandler<RaftRequest, undefined> = {
    deliver: (p) => this.registry(p.to)?.acceptForwardedProposal(p.arg),
    refused: () => {},
    label: (p) => ({ kind: 'proposal-forward', carries: [p.arg.type], lease: 'id' in p.arg ? p.arg.id : undefined }),
  };

  /** Hands a result to the request's waiter on this member, if it still waits; it runs after the caller. */
  private answer(req: RaftRequest, r: ApplyResult): void {
    const w = this.wait.get(req.reqId);
    if (w === undefined) return;
    this.wait.delete(req.reqId);
    this.proc.after(0, () => w.settle(r));
  }

  private acceptForwardedProposal(req: RaftRequest): void {
    if (!this.stoppedFlag && this.raft.role === 'leader') this.raft.propose(req);
  }

  /** The apply loop's input: committed entries, one message each. */
  private readonly applyLoop: Receiver<Entry> = { receive: (e) => this.apply(e) };

  private apply(e: Entry): void {
    if (this.stoppedFlag) return;
    const revisionBefore = this.store.currentRevision;
    if (isNoop(e)) {
      // Every earlier entry is applied by now, so renewals cannot race a revoke from an older term: true of
      // this leader's own empty entry, but etcd takes any (an apply loop that lags the election reaches an
      // older term's first); the proposed fix waits for its own term's.
      const own = !this.behaviour.promoteOnOwnTermEntryOnly || e.term === this.raft.term;
      if (own && this.isLeader() && !this.behaviour.promoteOnElection)
        this.lessor.promote(this.timings.electionTimeoutUs);
    } else {
      const req = e.data as RaftRequest;
      const r = applyRequest(req, this.lessor, this.store);
      if (req.origin === this.name) {
        // The waiting goroutine runs after the apply loop moves on.
        this.answer(req, r);
      }
    }
    this.appliedIdx = e.index;
    // The revision moves exactly when the write transaction had changes, which is when 3.4 saves the index.
    if (this.config.profile.consistentIndexSavedBy === 'every-entry' || this.store.currentRevision !== revisionBefore)
      this.disk.consistentIndex = e.index;
    if (e.index - this.disk.snapshotIndex > this.config.snapshotCount) this.snapshot(e.index);
    if (this.applyWaiters.length > 0) this.releaseApplyWaiters();
  }

  /**
   * etcdserver triggerSnapshot/snapshot: once more than snapshot-count entries were applied since the
   * last snapshot, KV().Commit() saves the consistent index. [SIM-CHOICE] etcd checks after each batch
   * of applied entries; this checks after each entry (the batch boundaries are not modelled).
   */
  private snapshot(index: number): void {
    this.disk.snapshotIndex = index;
    this.disk.consistentIndex = index;
    this.emit('server-snapshot', { index });
  }

  private releaseApplyWaiters(): void {
    for (let i = 0; i < this.applyWaiters.length; ) {
      const w = this.applyWaiters[i]!;
      if (w.index <= this.appliedIdx) {
        this.applyWaiters.splice(i, 1);
        this.proc.after(0, w.fn);
      } else i++;
    }
  }

  /** Calls back once applied ≥ index, or with the timeout error after `timeout`. */
  waitApplied(index: number, timeout: Micros, onTimeout: AnyServerError, cb: (err?: AnyServerError) => void): void {
    if (this.appliedIdx >= index) return cb();
    const d = new Deadline(this.proc, timeout, () => cb(onTimeout));
    this.applyWaiters.push({ index, fn: () => d.settle() && cb() });
  }

  /** waitAppliedIndex: applied ≥ the commit index as of now, within applyTimeout (1 s). */
  waitAppliedIndex(cb: (err?: AnyServerError) => void): void {
    this.waitApplied(this.raft.commitIndex, this.timings.applyTimeoutUs, ErrTimeoutWaitAppliedIndex, cb);
  }

  private onSoftState(s: SoftState): void {
    if (this.stoppedFlag) return;
    if (s.leader !== undefined && this.heldProposals.size > 0) this.releaseHeldProposals();
    // etcd demotes on every soft-state change that leaves this member not leader (harmless on followers).
    if (s.leader !== this.name) this.lessor.demote();
    // Bug A2 (v3.0): promoted as soon as raft says leader, before older entries are applied.
    else if (s.role === 'leader' && this.behaviour.promoteOnElection)
      this.lessor.promote(this.timings.electionTimeoutUs);
  }

  /** The require-leader interceptor: three election timeouts without a leader cancel leader-bound streams. */
  private monitorLeader(): void {
    if (this.stoppedFlag) return;
    this.noLeaderCnt = this.raft.leader === undefined ? this.noLeaderCnt + 1 : 0;
    if (this.noLeaderCnt >= 3) {
      for (const s of [...this.streams]) if (s.requireLeader) s.abort('no-leader');
    }
    this.leaderMonitor.arm(this.timings.electionTimeoutUs);
  }

  /**
   * ensureLeadership: a member that ticked recently is taken to still lead; otherwise it confirms with a
   * linearizable read (ReadIndex) and checks raft still names it leader.
   */
  ensureLeadership(cb: (ok: boolean) => void): void {
    if (this.leadershipFresh()) return cb(true);
    const d = new Deadline(this.proc, this.timings.reqTimeoutUs, () => cb(false));
    this.raft.readIndex((ok) => {
      if (d.settle()) cb(ok && this.raft.leader === this.name);
    });
  }

  /** ensureLeadership's answer without a round trip: true when it would call back `true` at once. */
  leadershipFresh(): boolean {
    return (
      !this.behaviour.leadershipByReadIndex &&
      // The raft node's own tick stands in for the server's (same loop, same instant): one timer, not two.
      this.raft.latestTickUs + this.timings.activeThresholdUs > this.proc.now()
    );
  }

  /** Under the proposed fix, the term whose leadership was just confirmed binds the lessor's proposals. */
  private confirmedTerm(): number | undefined {
    return this.behaviour.leadershipByReadIndex ? this.raft.term : undefined;
  }

  // ---- Lessor wiring ---------------------------------------------------------------------------------

  /** The Checkpointer: a LeaseCheckpoint proposal, result ignored; 3.5 first confirms leadership. */
  private readonly checkpointer: Checkpointer = (cps, done) => {
    const propose = (term?: number): void =>
      this.raftRequest({ type: 'LeaseCheckpoint', checkpoints: cps }, () => done(), term);
    if (!this.behaviour.revokeConfirmsLeadership) return propose();
    this.ensureLeadership((ok) => {
      if (ok) return propose(this.confirmedTerm());
      this.emit('server-checkpoint-refused', { count: cps.length });
      done(ErrNotPrimary);
    });
  };

  private receiveExpired(): void {
    const batch = this.lessor.expiredLeasesC.receive();
    if (batch !== undefined && !this.stoppedFlag) this.revokeExpiredLeases(batch);
  }

  /**
   * revokeExpiredLeases: one LeaseRevoke proposal per expired lease, at most 16 in flight for this batch.
   * Nothing retries here: an unrevoked lease is offered again by the lessor after the retry interval.
   */
  private revokeExpiredLeases(batch: readonly Lease[]): void {
    const ids = batch.map((l) => l.id);
    const run = (term?: number): void => {
      let next = 0;
      const startOne = (): void => {
        if (next >= ids.length || this.stoppedFlag) return;
        const id = ids[next++]!;
        this.raftRequest(
          { type: 'LeaseRevoke', id },
          (r) => {
            this.emit('server-expired-revoke', r.ok ? { ok: true } : { ok: false, err: r.err.name }, id);
            startOne();
          },
          term,
        );
      };
      for (let i = 0; i < 16; i++) startOne();
    };
    if (!this.behaviour.revokeConfirmsLeadership) return run();
    this.ensureLeadership((ok) => {
      if (ok) return run(this.confirmedTerm());
      this.emit('server-expired-revoke-skipped', { count: ids.length });
    });
  }

  // ---- Streams and lifecycle -------------------------------------------------------------------------

  /** The member's seeded source for its streams' own draws (a watch stream's progress jitter). */
  get streamPrng(): Prng {
    this.streamRng ??= this.deps.prng.fork('streams');
    return this.streamRng;
  }

  /**
   * Registers a client stream, unless etcd's stream interceptor (v3rpc/interceptor.go) refuses it: a stream
   * whose context carries `hasleader` is refused at once on a member that knows no leader. False when refused.
   */
  addStream(s: ServedStream): boolean {
    if (s.requireLeader && this.leader() === undefined) return false;
    this.streams.add(s);
    return true;
  }

  removeStream(s: ServedStream): void {
    this.streams.delete(s);
  }

  /** The member dies: volatile state is dropped, open streams break. */
  stop(): void {
    if (this.stoppedFlag) return;
    this.stoppedFlag = true;
    this.lessor.stop();
    for (const s of [...this.streams]) s.abort('stopped');
    this.streams.clear();
    this.wait.clear();
    this.heldProposals.clear();
  }
}

/** A proposal its member waits on: etcd's wait-registry entry, with the request's context (`deadline`). */
class Proposal {
  constructor(
    readonly req: RaftRequest,
    private readonly cb: (r: ApplyResult) => void,
    readonly leaderTerm: number | undefined,
    readonly deadline: Deadline,
  ) {}

  /** Answers the caller, unless the deadline answered first. */
  settle(r: ApplyResult): void {
    if (this.deadline.settle()) this.cb(r);
  }
}

/** Raft's election-clock hook for this member's observer, if it watches election clocks. */
function electionClockObserver(deps: ServerDeps): ((elapsed: number, timeout: number) => void) | undefined {
  const o = deps.observer;
  if (o?.electionClock === undefined) return undefined;
  return (elapsed, timeout) => o.electionClock!(deps.name, deps.raftProcess.now(), elapsed, timeout);
}

/** The lessor's run-loop hook for this member's observer, if it has one. */
function runLoopObserver(deps: ServerDeps): ((t: Micros, primary: boolean) => void) | undefined {
  const o = deps.observer;
  return o === undefined ? undefined : (t, primary) => o.runLoopPass(deps.name, t, primary);
}
