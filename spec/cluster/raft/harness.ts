import { Process } from '../../../src/clock/process.js';
import { Prng } from '../../../src/clock/prng.js';
import { Scheduler } from '../../../src/clock/scheduler.js';
import type { Micros } from '../../../src/clock/time.js';
import { Trace } from '../../../src/trace/trace.js';
import { Network, type NetworkConfig } from '../../../src/cluster/network/index.js';
import {
  RaftNode,
  RaftStorage,
  RaftTransport,
  type Entry,
  type RaftConfig,
  type SoftState,
} from '../../../src/cluster/raft/index.js';

export interface ClusterOptions {
  readonly members?: number;
  readonly seed?: number | string;
  readonly raft?: Partial<RaftConfig>;
  readonly net?: Partial<NetworkConfig>;
}

export interface Applied {
  readonly t: Micros;
  readonly entry: Entry;
}

/**
 * A raft cluster on one scheduler, with a state machine per member that records what it applies, and
 * Raft's safety properties checked as the run goes (a violation throws out of the scheduler):
 * - Election Safety: at most one leader per term;
 * - Leader Completeness: a leader's log holds every entry committed in an earlier term;
 * - State Machine Safety: no two members apply different entries at an index; each applies in order;
 * - durability: every applied (so committed) entry is in the storage of a quorum.
 * `checkLogMatching` checks the Log Matching property on demand.
 */
export class RaftCluster {
  readonly sched = new Scheduler();
  readonly trace = new Trace();
  readonly net: Network;
  readonly transport: RaftTransport;
  readonly ids: readonly string[];
  readonly procs = new Map<string, Process>();
  readonly storages = new Map<string, RaftStorage>();
  readonly nodes = new Map<string, RaftNode>();
  /** What each member's current state machine has applied, in order (index i at position i - 1). */
  readonly applied = new Map<string, Applied[]>();
  /** Every soft-state change, per member, with its time. */
  readonly softStates = new Map<string, (SoftState & { t: Micros })[]>();
  /** Entries known to be committed (applied somewhere), by index. */
  readonly committed = new Map<number, Entry>();
  /** The lowest term of a leader seen applying each committed entry: the term it was committed in. */
  readonly commitTerm = new Map<number, number>();
  readonly leaderOfTerm = new Map<number, string>();
  private readonly prng: Prng;
  private readonly raftConfig: Partial<RaftConfig>;

  constructor(opts: ClusterOptions = {}) {
    const n = opts.members ?? 3;
    this.ids = Array.from({ length: n }, (_, i) => `n${i + 1}`);
    this.prng = new Prng(opts.seed ?? 1);
    this.raftConfig = opts.raft ?? {};
    this.net = new Network(this.sched, this.prng, opts.net ?? {}, this.trace);
    this.transport = new RaftTransport(this.net);
    for (const id of this.ids) {
      const p = new Process(id, this.sched);
      this.procs.set(id, p);
      this.net.attach(id, p);
      this.storages.set(id, new RaftStorage());
      this.softStates.set(id, []);
      this.applied.set(id, []);
      this.start(id, 0);
    }
  }

  node(id: string): RaftNode {
    const n = this.nodes.get(id);
    if (n === undefined) throw new Error(`no node ${id}`);
    return n;
  }

  proc(id: string): Process {
    const p = this.procs.get(id);
    if (p === undefined) throw new Error(`no process ${id}`);
    return p;
  }

  storage(id: string): RaftStorage {
    const s = this.storages.get(id);
    if (s === undefined) throw new Error(`no storage ${id}`);
    return s;
  }

  appliedBy(id: string): Applied[] {
    const a = this.applied.get(id);
    if (a === undefined) throw new Error(`no state machine ${id}`);
    return a;
  }

  get now(): Micros {
    return this.sched.now();
  }

  run(us: Micros): void {
    this.sched.advance(us);
  }

  /** Runs until `pred` holds (checked after every event); returns the time, or undefined at `limitUs`. */
  runUntil(pred: () => boolean, limitUs: Micros): Micros | undefined {
    const end = this.now + limitUs;
    while (!pred()) {
      const next = this.sched.peekTime();
      if (next === undefined || next > end) {
        this.sched.runUntil(end);
        return undefined;
      }
      this.sched.step();
    }
    return this.now;
  }

  /** The running member that is leader in the highest term, if any. */
  leader(): RaftNode | undefined {
    let best: RaftNode | undefined;
    for (const [id, n] of this.nodes) {
      if (!this.proc(id).running || n.role !== 'leader') continue;
      if (best === undefined || n.term > best.term) best = n;
    }
    return best;
  }

  crash(id: string): void {
    this.proc(id).kill();
  }

  /** Restarts from storage; `keepStateMachine` models a durable state machine (etcd's consistent index). */
  restart(id: string, keepStateMachine = false): void {
    this.proc(id).restart();
    this.start(id, keepStateMachine ? this.appliedBy(id).length : 0);
  }

  /** Checks Log Matching: two logs holding an entry with the same index and term agree up to there. */
  checkLogMatching(): void {
    const logs = [...this.nodes.values()].map((n) => n.log);
    for (const a of logs) {
      for (const b of logs) {
        if (a === b) continue;
        const last = Math.min(a.lastIndex(), b.lastIndex());
        let i = last;
        while (i > 0 && a.term(i) !== b.term(i)) i--;
        for (let j = i; j > 0; j--) {
          const ea = a.entry(j)!;
          const eb = b.entry(j)!;
          if (ea.term !== eb.term || ea.data !== eb.data) throw new Error(`log matching broken at ${j} below ${i}`);
        }
      }
    }
  }

  private start(id: string, appliedIndex: number): void {
    const sm = this.appliedBy(id).slice(0, appliedIndex);
    this.applied.set(id, sm);
    const node: RaftNode = new RaftNode({
      id,
      members: this.ids,
      process: this.proc(id),
      transport: this.transport,
      prng: this.prng.fork(id),
      storage: this.storage(id),
      config: this.raftConfig,
      trace: this.trace,
      appliedIndex,
      onApply: (e) => this.onApply(id, sm, e),
      onSoftState: (s) => this.onSoftState(id, node, s),
    });
    this.nodes.set(id, node);
  }

  private onApply(id: string, sm: Applied[], e: Entry): void {
    if (e.index !== sm.length + 1) throw new Error(`${id} applied ${e.index} after ${sm.length}`);
    const c = this.committed.get(e.index);
    if (c === undefined) this.committed.set(e.index, e);
    else if (c.term !== e.term || c.data !== e.data) {
      throw new Error(
        `state machine safety: ${id} applied ${e.term}/${String(e.data)}` +
          ` at ${e.index}, another member ${c.term}/${String(c.data)}`,
      );
    }
    let durable = 0;
    for (const s of this.storages.values()) {
      const se = s.entry(e.index);
      if (se !== undefined && se.term === e.term) durable++;
    }
    if (durable < Math.floor(this.ids.length / 2) + 1)
      throw new Error(`entry ${e.index} applied by ${id} is durable on only ${durable} members`);
    // A leader applies what it commits in the same event, so the first leader to apply an entry committed it.
    const node = this.nodes.get(id);
    if (node?.role === 'leader' && !this.commitTerm.has(e.index)) this.commitTerm.set(e.index, node.term);
    sm.push({ t: this.now, entry: e });
  }

  private onSoftState(id: string, node: RaftNode, s: SoftState): void {
    this.softStates.get(id)!.push({ ...s, t: this.now });
    if (s.role !== 'leader') return;
    const other = this.leaderOfTerm.get(s.term);
    if (other !== undefined && other !== id)
      throw new Error(`election safety: ${other} and ${id} both lead term ${s.term}`);
    this.leaderOfTerm.set(s.term, id);
    for (const [i, term] of this.commitTerm) {
      if (term >= s.term) continue;
      const e = this.committed.get(i)!;
      const mine = node.log.entry(i);
      if (mine?.term !== e.term || mine.data !== e.data)
        throw new Error(`leader completeness: ${id} (term ${s.term}) lacks entry ${i} committed in term ${term}`);
    }
  }
}
