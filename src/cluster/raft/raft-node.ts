import type { Process, ProcessTimer, Receiver } from '../../clock/process.js';
import type { Prng } from '../../clock/prng.js';
import type { Micros } from '../../clock/time.js';
import { NO_TRACE, type Trace, type TraceFields, type TraceKind } from '../../trace/trace.js';
import { resolveRaftConfig, type RaftConfig, type ResolvedRaftConfig } from './config.js';
import { NO_ENTRIES, type Entry } from './entry.js';
import { RaftLog, type RaftLogView } from './log.js';
import { CAMPAIGN_TRANSFER, Message, voteRespType, type MessageType } from './messages.js';
import type { Progress } from './progress.js';
import { ReadOnly, type ReadIndexCallback } from './read-only.js';
import type { RaftStorage } from './storage.js';
import { ProgressTracker } from './tracker.js';
import type { RaftOutbox, RaftPeer, RaftTransport } from './transport.js';

export type RaftRole = 'follower' | 'candidate' | 'pre-candidate' | 'leader';

/** raft.SoftState plus the term: what the server layer reacts to (Demote, leader tracking). */
export interface SoftState {
  readonly leader: string | undefined;
  readonly role: RaftRole;
  readonly term: number;
}

export type ProposeResult =
  | { readonly index: number; readonly term: number }
  | { readonly error: 'not-leader' | 'transferring' };

export interface RaftNodeOptions {
  readonly id: string;
  /** Every member of the cluster, this one included. Membership never changes. */
  readonly members: readonly string[];
  /** The member's process: ticks, fsyncs and message handling run on it. */
  readonly process: Process;
  readonly transport: RaftTransport;
  /** The member's stream; the node forks its own per incarnation for election timeouts. */
  readonly prng: Prng;
  /** The member's durable state; pass the same object again after a restart. */
  readonly storage: RaftStorage;
  readonly config?: Partial<RaftConfig>;
  readonly trace?: Trace;
  /** etcd's consistent index: the state machine already holds every entry up to here. */
  readonly appliedIndex?: number;
  readonly onApply?: (entry: Entry) => void;
  readonly onSoftState?: (s: SoftState) => void;
  /**
   * An onlooker's view of a non-leader's election clock: ticks elapsed against the randomized timeout it
   * campaigns at, after each tick and each reset. Only reads, so a run is the same with or without it.
   */
  readonly onElectionClock?: (elapsedTicks: number, timeoutTicks: number) => void;
}

interface WalWrite {
  term: number;
  vote: string | undefined;
  /** Index of the first entry in `entries`. */
  from: number;
  entries: readonly Entry[];
}

type CampaignType = 'pre-election' | 'election' | 'transfer';
type StepDownReason = 'check-quorum' | 'higher-term' | 'transfer';

/**
 * One member's raft (etcd-io/raft's `raft` struct together with the Ready loop etcd's raftNode runs
 * around it), driven by ticks every heartbeat interval on the member's process.
 *
 * Durability follows etcd: term, vote and new entries reach the RaftStorage only after a WAL write of
 * `fsyncUs`; a follower's or candidate's messages leave only once the state they depend on is durable;
 * a leader sends at once (writing in parallel, as etcd's leader does) but counts itself toward a commit
 * only for what its own write has made durable. Committed entries are applied in order, once durable
 * here, in the same event that makes them so.
 */
export class RaftNode implements RaftPeer {
  readonly id: string;
  private readonly cfg: ResolvedRaftConfig;
  private readonly proc: Process;
  private readonly incarnation: number;
  private readonly outbox: RaftOutbox;
  private readonly prng: Prng;
  private readonly trace: Trace;
  private readonly storage: RaftStorage;
  private readonly onApply: ((entry: Entry) => void) | undefined;
  private readonly onSoftState: ((s: SoftState) => void) | undefined;
  private readonly onElectionClock: ((elapsed: number, timeout: number) => void) | undefined;
  private readonly raftLog: RaftLog;
  private readonly tracker: ProgressTracker;
  private readonly peerIds: readonly string[];
  private readonly readOnly = new ReadOnly();

  private currentTerm: number;
  private vote: string | undefined;
  private lead: string | undefined = undefined;
  private state: RaftRole = 'follower';
  private electionElapsed = 0;
  private randomizedElectionTimeout = 0;
  private leadTransferee: string | undefined = undefined;
  /** Ticks since start; read requests are stamped with it. */
  private ticks = 0;
  private lastTickUs: Micros;
  private readSeq = 0;
  /** Confirmed reads waiting for the apply index to reach theirs (etcd's ReadStates). */
  private readonly readStates: { readonly index: number; readonly cb: ReadIndexCallback }[] = [];
  private readonly failedReads: ReadIndexCallback[] = [];

  /** Term or vote changed since the last WAL write started. */
  private hardStateDirty = false;
  private writing = false;
  /** Messages released when the write in flight is durable. */
  private afterWrite: Message[] = [];
  /** Messages released when the next write (not yet started) is durable. */
  private afterNextWrite: Message[] = [];

  private notifiedLead: string | undefined = undefined;
  private notifiedRole: RaftRole = 'follower';
  private inEndStep = false;

  /** The last heartbeat sent to each of `tracker.peers`, and the last response to one. */
  private readonly heartbeats: (Message | undefined)[] = [];
  private heartbeatResp: Message | undefined = undefined;
  /** The periodic tick, set again each time it fires. */
  private readonly tickTimer: ProcessTimer;
  /** What the WAL write in flight saves (one write at a time), and the fsync that ends it. */
  private readonly inFlight: WalWrite = { term: 0, vote: undefined, from: 0, entries: NO_ENTRIES };
  private readonly writeTimer: ProcessTimer;
  /** Runs a peer's message on the raft loop: `step`'s second half, one object for every message. */
  private readonly inbox: Receiver<Message> = {
    receive: (m) => {
      if (this.defunct) return;
      this.stepMessage(m);
      this.endStep();
    },
  };

  constructor(opts: RaftNodeOptions) {
    if (!opts.members.includes(opts.id))
      throw new Error(`raft: ${opts.id} is not one of the members ${opts.members.join(',')}`);
    this.id = opts.id;
    this.cfg = resolveRaftConfig(opts.config ?? {});
    this.proc = opts.process;
    this.incarnation = opts.process.generation;
    this.prng = opts.prng.fork(`raft/${this.incarnation}`);
    this.trace = opts.trace ?? NO_TRACE;
    this.storage = opts.storage;
    this.onApply = opts.onApply;
    this.onSoftState = opts.onSoftState;
    this.onElectionClock = opts.onElectionClock;
    this.peerIds = opts.members.filter((m) => m !== opts.id);

    const st = opts.storage;
    const applied = opts.appliedIndex ?? 0;
    if (!Number.isInteger(applied) || applied < 0 || applied > st.lastIndex()) {
      throw new RangeError(`raft: appliedIndex ${applied} is outside the stored log [0, ${st.lastIndex()}]`);
    }
    // Everything the state machine holds was committed, so the commit index is at least that.
    this.raftLog = new RaftLog(st.entries(), Math.max(Math.min(st.commit, st.lastIndex()), applied), applied);
    this.currentTerm = st.term;
    this.vote = st.vote;
    this.tracker = new ProgressTracker(this.peerIds, this.raftLog.lastIndex());
    this.resetRandomizedElectionTimeout();
    this.lastTickUs = this.proc.now();

    this.outbox = opts.transport.register(this);
    this.writeTimer = this.proc.timer(this.writeDone);
    this.tickTimer = this.proc.timer(this.onTick);
    this.tickTimer.arm(this.cfg.tickUs);
    // A restarted member re-applies what it knows to be committed straight away, as etcd's first Ready does.
    if (this.raftLog.hasNextEntry()) this.proc.after(0, () => this.endStep());
  }

  get term(): number {
    return this.currentTerm;
  }

  get role(): RaftRole {
    return this.state;
  }

  /** The leader this member knows of, itself included; undefined when it knows none. */
  get leader(): string | undefined {
    return this.lead;
  }

  get commitIndex(): number {
    return this.raftLog.committed;
  }

  get appliedIndex(): number {
    return this.raftLog.applied;
  }

  /** When the raft loop last ticked (its start until the first tick): etcd's server reads it for isActive(). */
  get latestTickUs(): Micros {
    return this.lastTickUs;
  }

  get log(): RaftLogView {
    return this.raftLog;
  }

  /** The member a leadership transfer is under way to. */
  get transferee(): string | undefined {
    return this.leadTransferee;
  }

  /** Node.Campaign: start an election now (a pre-vote first when PreVote is on). A leader ignores it. */
  campaign(): void {
    if (this.defunct) return;
    this.hup();
    this.endStep();
  }

  /** Appends `data` as a new entry; leader only, and not while a leadership transfer is under way. */
  propose(data: unknown): ProposeResult {
    if (this.defunct || this.state !== 'leader') return { error: 'not-leader' };
    if (this.leadTransferee !== undefined) return { error: 'transferring' };
    const e = this.appendEntry(data);
    this.bcastAppend();
    this.endStep();
    return { index: e.index, term: e.term };
  }

  /**
   * MsgTransferLeader on the leader: stop taking proposals, bring `to` up to date, then send it
   * MsgTimeoutNow; given up after an election timeout. False when this member is not leader.
   */
  transferLeadership(to: string): boolean {
    if (this.defunct || this.state !== 'leader') return false;
    const pr = this.tracker.get(to);
    if (pr === undefined) return false;
    if (this.leadTransferee === to) return true;
    this.leadTransferee = to;
    // The transfer must finish within an election timeout, counted from now.
    this.electionElapsed = 0;
    this.emit('raft-transfer', { to });
    if (pr.match === this.raftLog.lastIndex()) this.sendTimeoutNow(to);
    else this.sendAppend(pr);
    this.endStep();
    return true;
  }

  /**
   * A linearizable read point (ReadOnlySafe): the leader takes its commit index, confirms it still leads
   * with a heartbeat round a quorum answers, and calls back once it has applied up to that index. Fails
   * (ok = false) on a non-leader, on a leader with nothing committed in its term yet, when leadership is
   * lost, or when no quorum confirms within an election timeout. Never calls back synchronously.
   */
  readIndex(cb: ReadIndexCallback): void {
    if (this.defunct) return;
    this.proc.after(0, () => {
      this.handleReadIndex(cb);
      this.endStep();
    });
  }

  /**
   * Handles a message from a peer. It arrives on the member's process and is handled on the raft loop's
   * (the same process unless the owner gave raft its own, which can then stall on its own).
   */
  step(m: Message): void {
    if (this.defunct) return;
    this.proc.handOff(this.incarnation, this.inbox, m);
  }

  // ---- time ----

  private readonly onTick = (): void => {
    this.tickTimer.arm(this.cfg.tickUs);
    this.ticks++;
    this.lastTickUs = this.proc.now();
    if (this.state === 'leader') this.tickHeartbeat();
    else this.tickElection();
    this.endStep();
  };

  /**
   * raftNode.advanceTicks: `n` ticks at once (the ticker is not moved), as etcd fast-forwards a starting
   * member's election clock; a follower whose randomized timeout is reached campaigns.
   */
  advanceTicks(n: number): void {
    for (let i = 0; i < n && !this.defunct; i++) {
      this.lastTickUs = this.proc.now();
      if (this.state === 'leader') this.tickHeartbeat();
      else this.tickElection();
    }
    this.endStep();
  }

  private tickElection(): void {
    this.electionElapsed++;
    if (this.electionElapsed >= this.randomizedElectionTimeout) {
      this.electionElapsed = 0;
      this.hup();
    }
    this.showElectionClock();
  }

  private showElectionClock(): void {
    if (this.state !== 'leader') this.onElectionClock?.(this.electionElapsed, this.randomizedElectionTimeout);
  }

  private tickHeartbeat(): void {
    this.electionElapsed++;
    for (const s of this.readOnly.expire(this.ticks - this.cfg.electionTicks)) this.failedReads.push(s.cb);
    if (this.electionElapsed >= this.cfg.electionTicks) {
      this.electionElapsed = 0;
      if (this.cfg.checkQuorum) this.checkQuorum();
      // A transfer that has not finished within an election timeout is given up.
      if (this.state === 'leader') this.leadTransferee = undefined;
    }
    // etcd's server sets HeartbeatTick to 1: the leader heartbeats on every tick.
    if (this.state === 'leader') this.bcastHeartbeat();
  }

  /** Uniform in [electionTicks, 2*electionTicks - 1], redrawn at every reset. */
  private resetRandomizedElectionTimeout(): void {
    this.randomizedElectionTimeout = this.cfg.electionTicks + this.prng.int(0, this.cfg.electionTicks - 1);
  }

  // ---- role changes ----

  private reset(term: number): void {
    if (this.currentTerm !== term) {
      this.currentTerm = term;
      this.vote = undefined;
      this.hardStateDirty = true;
      this.emit('raft-term', { term });
    }
    this.setLead(undefined);
    this.electionElapsed = 0;
    this.resetRandomizedElectionTimeout();
    this.showElectionClock();
    this.leadTransferee = undefined;
    this.tracker.reset(this.raftLog.lastIndex());
    for (const s of this.readOnly.drain()) this.failedReads.push(s.cb);
  }

  private becomeFollower(term: number, lead: string | undefined): void {
    this.reset(term);
    this.setRole('follower');
    this.setLead(lead);
  }

  private becomePreCandidate(): void {
    // Neither term nor vote changes: a pre-vote disturbs nobody until it would win.
    this.tracker.resetVotes();
    this.setLead(undefined);
    this.setRole('pre-candidate');
  }

  private becomeCandidate(): void {
    this.reset(this.currentTerm + 1);
    this.vote = this.id;
    this.hardStateDirty = true;
    this.setRole('candidate');
  }

  private becomeLeader(): void {
    this.reset(this.currentTerm);
    this.setRole('leader');
    this.setLead(this.id);
    // The empty entry commits everything before it once a quorum holds it (Raft paper §5.4.2), and its apply is
    // where etcd's server promotes the lessor.
    this.appendEntry(null);
  }

  private stepDown(reason: StepDownReason, term: number, lead: string | undefined): void {
    this.emit('raft-step-down', { reason });
    this.becomeFollower(term, lead);
  }

  private setRole(role: RaftRole): void {
    const changed = role !== this.state;
    this.state = role;
    // Every new campaign is worth a line; staying a follower is not.
    if (changed || role !== 'follower') this.emit('raft-role', { role, term: this.currentTerm });
  }

  private setLead(lead: string | undefined): void {
    if (lead === this.lead) return;
    this.lead = lead;
    if (lead !== undefined) this.emit('raft-leader', { leader: lead, term: this.currentTerm });
  }

  // ---- elections ----

  private hup(): void {
    if (this.state === 'leader') return;
    this.startCampaign(this.cfg.preVote ? 'pre-election' : 'election');
  }

  private startCampaign(t: CampaignType): void {
    let voteType: 'MsgVote' | 'MsgPreVote';
    let term: number;
    if (t === 'pre-election') {
      this.becomePreCandidate();
      voteType = 'MsgPreVote';
      // Ask with the term we would campaign at, without moving to it.
      term = this.currentTerm + 1;
    } else {
      this.becomeCandidate();
      voteType = 'MsgVote';
      term = this.currentTerm;
    }
    if (this.tracker.recordVote(this.id, true) === 'won') {
      // A single-member cluster wins on its own vote.
      if (t === 'pre-election') this.startCampaign('election');
      else this.becomeLeader();
      return;
    }
    const ctx = t === 'transfer' ? CAMPAIGN_TRANSFER : 0;
    const lastIndex = this.raftLog.lastIndex();
    const lastTerm = this.raftLog.lastTerm();
    for (const to of this.peerIds) {
      this.send(
        Message.of({ type: voteType, from: this.id, to, term, logTerm: lastTerm, index: lastIndex, context: ctx }),
      );
    }
  }

  private handleVote(m: Message, type: 'MsgVote' | 'MsgPreVote'): void {
    const respType = voteRespType(type);
    const canVote =
      this.vote === m.from ||
      (this.vote === undefined && this.lead === undefined) ||
      (type === 'MsgPreVote' && m.term > this.currentTerm);
    if (canVote && this.raftLog.isUpToDate(m.index, m.logTerm)) {
      if (type === 'MsgVote') {
        this.electionElapsed = 0;
        if (this.vote !== m.from) {
          this.vote = m.from;
          this.hardStateDirty = true;
        }
      }
      // Sent after the vote is recorded, so it waits for the write that makes the vote durable.
      this.send(Message.of({ type: respType, from: this.id, to: m.from, term: m.term }));
    } else {
      this.send(Message.of({ type: respType, from: this.id, to: m.from, term: this.currentTerm, reject: true }));
    }
  }

  // ---- message handling (raft.Step and the per-role step functions) ----

  private stepMessage(m: Message): void {
    if (m.term > this.currentTerm) {
      if (m.type === 'MsgVote' || m.type === 'MsgPreVote') {
        // With CheckQuorum, a member that heard from a leader within an election timeout ignores
        // candidates, unless the leader itself asked for the election (transfer).
        const inLease =
          this.cfg.checkQuorum && this.lead !== undefined && this.electionElapsed < this.cfg.electionTicks;
        if (m.context !== CAMPAIGN_TRANSFER && inLease) return;
      }
      // A pre-vote never moves our term; a granted pre-vote response moves it only once a quorum grants.
      if (m.type !== 'MsgPreVote' && !(m.type === 'MsgPreVoteResp' && !m.reject)) {
        const lead = m.type === 'MsgApp' || m.type === 'MsgHeartbeat' ? m.from : undefined;
        if (this.state === 'leader')
          this.stepDown(m.from === this.leadTransferee ? 'transfer' : 'higher-term', m.term, lead);
        else this.becomeFollower(m.term, lead);
      }
    } else if (m.term < this.currentTerm) {
      if ((this.cfg.checkQuorum || this.cfg.preVote) && (m.type === 'MsgHeartbeat' || m.type === 'MsgApp')) {
        // A stale leader cut off by a partition would otherwise never learn the new term.
        this.send(Message.of({ type: 'MsgAppResp', from: this.id, to: m.from, term: this.currentTerm }));
      } else if (m.type === 'MsgPreVote') {
        this.send(
          Message.of({ type: 'MsgPreVoteResp', from: this.id, to: m.from, term: this.currentTerm, reject: true }),
        );
      }
      return;
    }

    if (m.type === 'MsgVote' || m.type === 'MsgPreVote') {
      this.handleVote(m, m.type);
      return;
    }
    switch (this.state) {
      case 'leader':
        this.stepLeader(m);
        break;
      case 'candidate':
      case 'pre-candidate':
        this.stepCandidate(m);
        break;
      case 'follower':
        this.stepFollower(m);
        break;
    }
  }

  private stepLeader(m: Message): void {
    const pr = this.tracker.get(m.from);
    if (pr === undefined) return;
    if (m.type === 'MsgAppResp') {
      pr.recentActive = true;
      if (m.reject) {
        const hint = m.logTerm > 0 ? this.raftLog.findConflictByTerm(m.rejectHint, m.logTerm) : m.rejectHint;
        if (pr.maybeDecrTo(m.index, hint)) {
          if (pr.state === 'replicate') pr.becomeProbe();
          this.sendAppend(pr);
        }
        return;
      }
      const oldPaused = pr.isPaused();
      if (!pr.maybeUpdate(m.index)) return;
      if (pr.state === 'probe') pr.becomeReplicate();
      if (this.maybeCommit()) this.bcastAppend();
      else if (oldPaused) this.sendAppend(pr);
      // Entries proposed while the follower was being probed.
      this.maybeSendAppend(pr, false);
      if (m.from === this.leadTransferee && pr.match === this.raftLog.lastIndex()) this.sendTimeoutNow(m.from);
    } else if (m.type === 'MsgHeartbeatResp') {
      pr.recentActive = true;
      pr.probeSent = false;
      if (pr.match < this.raftLog.lastIndex()) this.sendAppend(pr);
      if (m.context === 0 || this.readOnly.recvAck(m.from, m.context) + 1 < this.tracker.quorum) return;
      for (const s of this.readOnly.advance(m.context)) this.readStates.push({ index: s.index, cb: s.cb });
    }
  }

  private stepCandidate(m: Message): void {
    const myVoteRespType: MessageType = this.state === 'pre-candidate' ? 'MsgPreVoteResp' : 'MsgVoteResp';
    if (m.type === 'MsgApp') {
      this.becomeFollower(m.term, m.from);
      this.handleAppendEntries(m);
    } else if (m.type === 'MsgHeartbeat') {
      this.becomeFollower(m.term, m.from);
      this.handleHeartbeat(m);
    } else if (m.type === myVoteRespType) {
      const res = this.tracker.recordVote(m.from, !m.reject);
      if (res === 'won') {
        if (this.state === 'pre-candidate') this.startCampaign('election');
        else {
          this.becomeLeader();
          this.bcastAppend();
        }
      } else if (res === 'lost') {
        this.becomeFollower(this.currentTerm, undefined);
      }
    }
  }

  private stepFollower(m: Message): void {
    if (m.type === 'MsgApp') {
      this.electionElapsed = 0;
      this.showElectionClock();
      this.setLead(m.from);
      this.handleAppendEntries(m);
    } else if (m.type === 'MsgHeartbeat') {
      this.electionElapsed = 0;
      this.showElectionClock();
      this.setLead(m.from);
      this.handleHeartbeat(m);
    } else if (m.type === 'MsgTimeoutNow') {
      this.startCampaign('transfer');
    }
  }

  private handleAppendEntries(m: Message): void {
    const log = this.raftLog;
    if (m.index < log.committed) {
      this.send(
        Message.of({ type: 'MsgAppResp', from: this.id, to: m.from, term: this.currentTerm, index: log.committed }),
      );
      return;
    }
    const last = log.maybeAppend(m.index, m.logTerm, m.commit, m.entries);
    if (last >= 0) {
      this.send(Message.of({ type: 'MsgAppResp', from: this.id, to: m.from, term: this.currentTerm, index: last }));
      return;
    }
    // Fast backtracking: point the leader at our last entry whose term is at most the one it probed with.
    const hint = log.findConflictByTerm(Math.min(m.index, log.lastIndex()), m.logTerm);
    this.send(
      Message.of({
        type: 'MsgAppResp',
        from: this.id,
        to: m.from,
        term: this.currentTerm,
        logTerm: log.term(hint) ?? 0,
        index: m.index,
        reject: true,
        rejectHint: hint,
      }),
    );
  }

  private handleHeartbeat(m: Message): void {
    this.raftLog.commitTo(m.commit);
    // As with heartbeats, the last response goes again when it says the same.
    let r = this.heartbeatResp;
    if (r === undefined || r.to !== m.from || r.term !== this.currentTerm || r.context !== m.context) {
      r = Message.of({
        type: 'MsgHeartbeatResp',
        from: this.id,
        to: m.from,
        term: this.currentTerm,
        context: m.context,
      });
      this.heartbeatResp = r;
    }
    this.send(r);
  }

  private checkQuorum(): void {
    if (!this.tracker.quorumActive()) this.stepDown('check-quorum', this.currentTerm, undefined);
    for (const p of this.tracker.peers) p.recentActive = false;
  }

  private handleReadIndex(cb: ReadIndexCallback): void {
    const log = this.raftLog;
    // Until its empty entry commits, a new leader does not know the true commit index.
    if (this.state !== 'leader' || log.term(log.committed) !== this.currentTerm) {
      this.failedReads.push(cb);
      return;
    }
    if (this.peerIds.length === 0) {
      this.readStates.push({ index: log.committed, cb });
      return;
    }
    const ctx = ++this.readSeq;
    this.readOnly.add(log.committed, ctx, this.ticks, cb);
    this.bcastHeartbeat();
  }

  // ---- replication (leader) ----

  private appendEntry(data: unknown): Entry {
    const e: Entry = { index: this.raftLog.lastIndex() + 1, term: this.currentTerm, data };
    this.raftLog.push(e);
    return e;
  }

  /** The leader's durable index counts as its own match: it commits only what its own WAL holds. */
  private maybeCommit(): boolean {
    return this.raftLog.maybeCommit(this.tracker.committed(this.raftLog.stable), this.currentTerm);
  }

  private bcastAppend(): void {
    for (const pr of this.tracker.peers) this.sendAppend(pr);
  }

  private sendAppend(pr: Progress): void {
    this.maybeSendAppend(pr, true);
  }

  private maybeSendAppend(pr: Progress, sendIfEmpty: boolean): boolean {
    if (pr.isPaused()) return false;
    const log = this.raftLog;
    const prev = pr.next - 1;
    const ents = log.slice(pr.next, log.lastIndex() + 1);
    if (ents.length === 0 && !sendIfEmpty) return false;
    if (ents.length > 0) {
      if (pr.state === 'replicate') pr.optimisticUpdate(ents[ents.length - 1]!.index);
      else pr.probeSent = true;
    }
    const logTerm = log.term(prev) ?? 0;
    this.send(
      Message.of({
        type: 'MsgApp',
        from: this.id,
        to: pr.id,
        term: this.currentTerm,
        logTerm,
        index: prev,
        entries: ents,
        commit: log.committed,
      }),
    );
    return true;
  }

  private bcastHeartbeat(): void {
    const ctx = this.readOnly.lastPendingCtx();
    const committed = this.raftLog.committed;
    const peers = this.tracker.peers;
    const term = this.currentTerm;
    for (let i = 0; i < peers.length; i++) {
      const pr = peers[i]!;
      // Never tell a follower to commit past what it is known to hold.
      const commit = Math.min(pr.match, committed);
      // Messages are immutable, so the last heartbeat goes again when it says the same (as it mostly does).
      let m = this.heartbeats[i];
      if (m === undefined || m.term !== term || m.commit !== commit || m.context !== ctx) {
        m = Message.of({ type: 'MsgHeartbeat', from: this.id, to: pr.id, term, commit, context: ctx });
        this.heartbeats[i] = m;
      }
      this.send(m);
    }
  }

  private sendTimeoutNow(to: string): void {
    this.send(Message.of({ type: 'MsgTimeoutNow', from: this.id, to, term: this.currentTerm }));
  }

  // ---- durability and the Ready loop ----

  private unpersisted(): boolean {
    return this.hardStateDirty || this.raftLog.hasUnstable();
  }

  private send(m: Message): void {
    if (this.state === 'leader' || (!this.writing && !this.unpersisted())) this.outbox.send(m);
    else if (this.unpersisted()) this.afterNextWrite.push(m);
    else this.afterWrite.push(m);
  }

  private startWrite(): void {
    const log = this.raftLog;
    this.writing = true;
    this.hardStateDirty = false;
    const w = this.inFlight;
    w.from = log.unstableFrom;
    w.entries = log.takeUnstable();
    w.term = this.currentTerm;
    w.vote = this.vote;
    // afterWrite is empty whenever no write is in flight.
    const spare = this.afterWrite;
    this.afterWrite = this.afterNextWrite;
    this.afterNextWrite = spare;
    this.writeTimer.arm(this.cfg.fsyncUs);
  }

  private readonly writeDone = (): void => {
    const w = this.inFlight;
    const { term, vote, from, entries: ents } = w;
    w.entries = NO_ENTRIES;
    this.storage.save(term, vote, from, ents);
    const last = ents[ents.length - 1];
    if (last !== undefined) this.raftLog.stableTo(last.index, last.term);
    this.writing = false;
    const msgs = this.afterWrite;
    for (const m of msgs) this.outbox.send(m);
    msgs.length = 0;
    if (this.state === 'leader' && this.maybeCommit()) this.bcastAppend();
    this.endStep();
  };

  /**
   * What etcd's raftNode does with each Ready, run at the end of every event that touched this node:
   * report a soft-state change, start the next WAL write, apply committed entries, answer reads.
   * Callbacks may call back in; the loop picks up whatever they changed.
   */
  private endStep(): void {
    if (this.inEndStep) return;
    this.inEndStep = true;
    try {
      while (!this.defunct) {
        if (this.lead !== this.notifiedLead || this.state !== this.notifiedRole) {
          this.notifiedLead = this.lead;
          this.notifiedRole = this.state;
          this.onSoftState?.({ leader: this.lead, role: this.state, term: this.currentTerm });
          continue;
        }
        if (!this.writing && this.unpersisted()) this.startWrite();
        if (this.raftLog.hasNextEntry()) {
          const e = this.raftLog.nextEntry();
          // Whatever is applied is committed and durable here.
          if (e.index > this.storage.commit) this.storage.commit = e.index;
          this.onApply?.(e);
          continue;
        }
        const rs = this.readStates[0];
        if (rs !== undefined && rs.index <= this.raftLog.applied) {
          this.readStates.shift();
          rs.cb(true, rs.index);
          continue;
        }
        if (this.failedReads.length === 0) break;
        this.failedReads.shift()!(false, 0);
      }
    } finally {
      this.inEndStep = false;
    }
  }

  /** This node belongs to an incarnation of the process that has since been killed. */
  private get defunct(): boolean {
    return this.proc.generation !== this.incarnation;
  }

  private emit<K extends TraceKind>(kind: K, fields: TraceFields[K]): void {
    if (this.trace.enabled) this.trace.emit({ t: this.proc.now(), member: this.id, kind, fields });
  }
}
