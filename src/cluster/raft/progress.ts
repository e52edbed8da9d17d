/**
 * tracker.Progress: what the leader knows of one follower's log. In `probe` the leader sends one MsgApp
 * and waits for its answer (or the next heartbeat response) before sending another; in `replicate` it
 * streams entries optimistically. (No `snapshot` state: the log is never compacted.)
 */
export class Progress {
  match = 0;
  next: number;
  state: 'probe' | 'replicate' = 'probe';
  /** Probe state: an append is outstanding, so sending is paused. */
  probeSent = false;
  /** Heard from since the last CheckQuorum round. */
  recentActive = false;

  constructor(
    readonly id: string,
    lastIndex: number,
  ) {
    this.next = lastIndex + 1;
  }

  isPaused(): boolean {
    return this.state === 'probe' && this.probeSent;
  }

  becomeProbe(): void {
    this.state = 'probe';
    this.probeSent = false;
    this.next = this.match + 1;
  }

  becomeReplicate(): void {
    this.state = 'replicate';
    this.probeSent = false;
    this.next = this.match + 1;
  }

  /** An acknowledgement of `n`; false when it is stale. */
  maybeUpdate(n: number): boolean {
    let updated = false;
    if (this.match < n) {
      this.match = n;
      updated = true;
      this.probeSent = false;
    }
    if (this.next < n + 1) this.next = n + 1;
    return updated;
  }

  /** Replicate state: entries up to `last` are on their way. */
  optimisticUpdate(last: number): void {
    this.next = last + 1;
  }

  /**
   * A rejection of the append at `rejected`; `matchHint` is where the follower's log may agree with ours.
   * Returns false for a stale rejection.
   */
  maybeDecrTo(rejected: number, matchHint: number): boolean {
    if (this.state === 'replicate') {
      if (rejected <= this.match) return false;
      this.next = this.match + 1;
      return true;
    }
    if (this.next - 1 !== rejected) return false;
    this.next = Math.max(Math.min(rejected, matchHint + 1), 1);
    this.probeSent = false;
    return true;
  }
}
