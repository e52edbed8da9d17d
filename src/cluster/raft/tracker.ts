import { Progress } from './progress.js';

export type VoteResult = 'won' | 'lost' | 'pending';

/**
 * tracker.ProgressTracker for a fixed membership (no configuration changes): the leader's progress of
 * every other member, and a candidate's tally of votes. The local member is counted by the caller.
 */
export class ProgressTracker {
  readonly peers: readonly Progress[];
  private readonly byId: Map<string, Progress>;
  readonly quorum: number;
  private readonly votes = new Map<string, boolean>();
  /** Scratch for `committed`, so a commit check allocates nothing. */
  private readonly matches: number[];

  constructor(peerIds: readonly string[], lastIndex: number) {
    this.peers = peerIds.map((id) => new Progress(id, lastIndex));
    this.byId = new Map(this.peers.map((p) => [p.id, p]));
    this.quorum = Math.floor((peerIds.length + 1) / 2) + 1;
    this.matches = new Array<number>(peerIds.length + 1).fill(0);
  }

  get(id: string): Progress | undefined {
    return this.byId.get(id);
  }

  /** Forgets every follower's progress (a new term starts). */
  reset(lastIndex: number): void {
    for (const p of this.peers) {
      p.match = 0;
      p.next = lastIndex + 1;
      p.state = 'probe';
      p.probeSent = false;
      p.recentActive = false;
    }
    this.votes.clear();
  }

  resetVotes(): void {
    this.votes.clear();
  }

  /** The highest index durable on a quorum, counting the leader's own durable index `selfMatch`. */
  committed(selfMatch: number): number {
    const m = this.matches;
    m[0] = selfMatch;
    for (let i = 0; i < this.peers.length; i++) m[i + 1] = this.peers[i]!.match;
    // Insertion sort, highest first: at most seven members, checked on every append response.
    for (let i = 1; i < m.length; i++) {
      const v = m[i]!;
      let j = i - 1;
      for (; j >= 0 && m[j]! < v; j--) m[j + 1] = m[j]!;
      m[j + 1] = v;
    }
    return m[this.quorum - 1]!;
  }

  /** CheckQuorum: the leader (active by definition) and enough recently heard followers form a quorum. */
  quorumActive(): boolean {
    let active = 1;
    for (const p of this.peers) if (p.recentActive) active++;
    return active >= this.quorum;
  }

  /** Records the first answer of `id` and tallies; the caller records its own vote as well. */
  recordVote(id: string, granted: boolean): VoteResult {
    if (!this.votes.has(id)) this.votes.set(id, granted);
    let yes = 0;
    let no = 0;
    for (const v of this.votes.values()) v ? yes++ : no++;
    if (yes >= this.quorum) return 'won';
    if (no > this.peers.length + 1 - this.quorum) return 'lost';
    return 'pending';
  }
}
