import type { Timer } from '../clock/scheduler.js';
import { MICROS_PER_SECOND, type Micros } from '../clock/time.js';
import type { KeepAliveResponse, KeepAliveStream, RpcError, StreamOptions } from '../cluster/server/api.js';
import type { Conn } from './conn.js';
import { DEADLINE_LOOP_US, RETRY_CONN_WAIT_US } from './constants.js';
import type { ClientCore } from './core.js';
import { NO_LEADER } from './errors.js';
import { LeaseIdMap } from '../lessor/lease-id.js';
import { KeepAliveChannel, type CallerCtx, type KeepAliveCloseReason } from './keepalive-channel.js';
import { KeepAliveOrder } from './keepalive-order.js';

const REQUIRE_LEADER: StreamOptions = { requireLeader: true };

/** lease.go `keepAlive`: one per lease ID, shared by every KeepAlive caller of that ID. */
interface KeepAliveState {
  readonly id: bigint;
  /** Open channels, index-paired with `ctxs` (until closeRequireLeader misaligns them, as upstream). */
  chs: KeepAliveChannel[];
  /** `chs[0]` while it is the only channel (the usual case): a response reaches it without the array. */
  sole: KeepAliveChannel | undefined;
  ctxs: CallerCtx[];
  /** The channels close when no response has come by this instant. */
  deadline: Micros;
  /** The send loop sends for this lease once `nextKeepAlive` is strictly before now. */
  nextKeepAlive: Micros;
  /** `ka.donec` closed: the state was reaped (TTL ≤ 0, deadline, client close). */
  done: boolean;
  /** Position in the loops' order (KeepAliveOrder). */
  pos: number;
}

export interface KeepAliveOptions {
  /**
   * The caller's context carries WithRequireLeader: the channel closes (reason `no-leader`) when the
   * stream ends with ErrNoLeader. Defaults to the client's `requireLeader` option.
   */
  readonly requireLeader?: boolean;
}

/** `(TTL × 1 s) / 3` as Go computes it (int64 nanoseconds, truncating), then floored to µs. */
export function nextKeepAliveDelay(ttlSeconds: number): Micros {
  // Both truncating divisions fold into one: trunc(trunc(ttl × 10⁹ / 3) / 10³) = trunc(ttl × 10⁶ / 3),
  // exact in doubles while ttl × 10⁶ is a safe integer (every TTL up to MaxLeaseTTL is).
  const us = ttlSeconds * 1_000_000;
  if (Number.isSafeInteger(us)) return (us - (us % 3)) / 3;
  return Number((BigInt(ttlSeconds) * 1_000_000_000n) / 3n / 1_000n);
}

const soleOf = (chs: readonly KeepAliveChannel[]): KeepAliveChannel | undefined =>
  chs.length === 1 ? chs[0] : undefined;

const byId = (a: KeepAliveState, b: KeepAliveState): number => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * clientv3's lease keepalive machinery (client/v3/lease.go@v3.5.33, docs/lessor.md §5.2), one per client:
 *
 * - `keepAlive(id)` registers a caller; the first call starts the receive loop (which opens the one
 *   LeaseKeepAlive stream all leases share) and the deadline loop. A new lease starts with
 *   `deadline = now + firstKeepAliveTimeout` and `nextKeepAlive = now`.
 * - Send loop, per stream: a pass at once, then one 500 ms (retryConnWait) after each pass ends, each
 *   pass taking the client's `sendPassDriftUs` (SEND_PASS_DRIFT_US by default): send `{ID}` for every lease whose
 * nextKeepAlive is strictly before
 *   now. nextKeepAlive moves only on a response, so an unanswered lease is re-sent on every pass.
 * - On a response: TTL ≤ 0 closes the lease's channels (no error value: that is how clientv3 reports
 *   expiry or revoke); otherwise `nextKeepAlive = now + TTL/3`, `deadline = now + TTL`.
 * - Deadline loop, every 1 s: closes the channels of each lease whose deadline is strictly before now.
 * - A stream that ends with an error is reopened 500 ms later on the client's pinned member (which an
 *   Unavailable error has just moved: failover). ErrNoLeader also closes the channels whose caller
 *   required a leader. Keepalive state survives across streams.
 *
 * Determinisations. [SIM-CHOICE] Go iterates its keepAlives map in random order; this iterates in
 * ascending lease ID. [SIM-CHOICE] In Go the clock moves between KeepAlive() storing
 * `nextKeepAlive = now` and the send loop reading `now` (goroutine hand-off), so a new lease goes out
 * on the loop's very next pass, even the first one; virtual time does not move there, so
 * nextKeepAlive starts 1 µs before now (the smallest instant strictly before it). [SIM-CHOICE] When
 * timers come due together (after a pause), they run in the order they came due; a Go program woken
 * from SIGSTOP would race its goroutines.
 *
 * Upstream quirks kept on purpose: after closeRequireLeader a lease whose every channel closed stays
 * in the map (Go does not delete it) and, with no channel left to advance nextKeepAlive, is re-sent on
 * every 500 ms pass until a caller's context is cancelled, its deadline passes or it is gone; and the
 * surviving channels are re-paired with the contexts at the *new* indexes (lease.go L398-408), so a
 * later cancel may close another caller's channel.
 */
export class LeaseKeepAlive {
  private readonly keepAlives = new LeaseIdMap<KeepAliveState>();
  private sortedCache: KeepAliveOrder<KeepAliveState> | undefined;
  private started = false;
  /** `l.donec` closed: the receive loop exited (the client was closed). */
  private halted = false;
  private stream: { readonly s: KeepAliveStream; readonly conn: Conn; readonly gen: number } | undefined;
  private gen = 0;
  private sendTimer: Timer | undefined;
  private deadlineTimer: Timer | undefined;
  private reopenTimer: Timer | undefined;
  /** Keepalive requests sent, over all streams. */
  sent = 0;
  /** Streams opened (the first one included). */
  streamsOpened = 0;

  constructor(private readonly core: ClientCore) {}

  keepAlive(id: bigint, opts: KeepAliveOptions = {}): KeepAliveChannel {
    const { process, tracer } = this.core;
    const ch = new KeepAliveChannel(id, opts.requireLeader ?? this.core.requireLeader, tracer, process, (c) =>
      this.cancel(c),
    );
    if (this.halted) {
      // ErrKeepAliveHalted: the loop is gone, the channel comes back closed.
      ch.shut('client-closed');
      return ch;
    }
    if (tracer.on) tracer.emit('client-keepalive-start', id, { requireLeader: ch.requireLeader });
    const now = process.now();
    let ka = this.keepAlives.get(id);
    if (ka === undefined) {
      ka = {
        id,
        chs: [ch],
        sole: ch,
        ctxs: [ch.ctx],
        deadline: now + this.core.firstKeepAliveTimeoutUs,
        nextKeepAlive: now - 1,
        done: false,
        pos: -1,
      };
      this.keepAlives.set(id, ka);
      this.sortedCache = undefined;
    } else {
      ka.chs.push(ch);
      ka.sole = soleOf(ka.chs);
      ka.ctxs.push(ch.ctx);
    }
    ctxOwner.set(ch.ctx, ka);
    if (!this.started) {
      this.started = true;
      this.openStream();
      this.deadlineTimer = process.after(DEADLINE_LOOP_US, () => this.deadlinePass());
    }
    return ch;
  }

  /** lease.go `Unexpired`: a keepalive exists for the lease and its deadline is still ahead. */
  unexpired(id: bigint): boolean {
    const ka = this.keepAlives.get(id);
    return ka !== undefined && ka.deadline > this.core.process.now();
  }

  /** Leases the loop is keeping alive (channels or not), ascending. */
  get leases(): bigint[] {
    return this.sorted().map((ka) => ka.id);
  }

  /** The member the current keepalive stream goes to, if one is open. */
  get streamEndpoint(): string | undefined {
    return this.stream?.conn.endpoint;
  }

  /** The client is closing: the receive loop exits and every channel closes (reason `client-closed`). */
  close(): void {
    if (this.halted) return;
    this.halted = true;
    this.stream?.s.close();
    this.stream = undefined;
    this.sendTimer?.cancel();
    this.deadlineTimer?.cancel();
    this.reopenTimer?.cancel();
    for (const ka of this.sorted()) this.closeKa(ka, 'client-closed');
    this.keepAlives.clear();
  }

  // --- receive loop -------------------------------------------------------------------------------

  /** resetRecv: opens a stream on the pinned member and starts its send loop. */
  private openStream(): void {
    if (this.halted) return;
    const conn = this.core.balancer.current;
    const gen = ++this.gen;
    this.streamsOpened++;
    // The lessor's stop context is WithRequireLeader (lease.go NewLease): every stream carries hasleader.
    const s = conn.openKeepAlive(
      {
        onResponse: (r) => this.onResponse(gen, r),
        onError: (e) => this.onStreamError(gen, conn, e),
      },
      REQUIRE_LEADER,
    );
    this.stream = { s, conn, gen };
    if (this.core.tracer.on)
      this.core.tracer.emit('client-keepalive-stream-open', undefined, { endpoint: conn.endpoint });
    this.sendTimer?.cancel();
    this.sendPass(gen);
  }

  private onResponse(gen: number, r: KeepAliveResponse): void {
    if (this.halted || this.stream?.gen !== gen) return;
    this.recvKeepAlive(r);
  }

  private onStreamError(gen: number, conn: Conn, e: RpcError): void {
    if (this.halted || this.stream?.gen !== gen) return;
    this.stream = undefined;
    const { tracer, process, balancer } = this.core;
    if (tracer.on) tracer.emit('client-keepalive-stream-error', undefined, { endpoint: conn.endpoint, error: e.name });
    if (e.name === NO_LEADER) this.closeRequireLeader();
    if (e.code === 'Unavailable') balancer.fail(conn, e.name);
    this.reopenTimer = process.after(RETRY_CONN_WAIT_US, () => {
      this.reopenTimer = undefined;
      this.openStream();
    });
  }

  /** recvKeepAlive. */
  private recvKeepAlive(r: KeepAliveResponse): void {
    const { tracer, process } = this.core;
    if (tracer.on) tracer.emit('client-keepalive-recv', r.id, { ttl: r.ttl });
    const ka = this.keepAlives.get(r.id);
    if (ka === undefined) return;
    if (r.ttl <= 0) {
      this.keepAlives.delete(r.id);
      this.sortedCache = undefined;
      this.closeKa(ka, 'ttl<=0');
      return;
    }
    const now = process.now();
    ka.deadline = now + r.ttl * MICROS_PER_SECOND;
    const sole = ka.sole;
    // Go advances nextKeepAlive inside the loop over channels: with none left, it does not move.
    if (sole !== undefined || ka.chs.length > 0) ka.nextKeepAlive = now + nextKeepAliveDelay(r.ttl);
    // The order, if built, was built after the last change to the map, which holds `ka`.
    this.sortedCache?.update(ka);
    if (sole !== undefined) return sole.deliver(r);
    // A delivery may cancel a channel (splicing chs): iterate a copy.
    for (const ch of [...ka.chs]) ch.deliver(r);
  }

  // --- send loop ----------------------------------------------------------------------------------

  private sendPass(gen: number): void {
    this.sendTimer = undefined;
    const stream = this.stream;
    if (this.halted || stream === undefined || stream.gen !== gen) return; // the stream's context is done
    const { process, tracer } = this.core;
    const now = process.now();
    const { list, next } = this.order();
    for (let i = 0; i < list.length; i++) {
      if (next[i]! < now) {
        const ka = list[i]!;
        this.sent++;
        if (tracer.on) tracer.emit('client-keepalive-send', ka.id, { endpoint: stream.conn.endpoint });
        stream.s.send(ka.id);
        if (this.stream !== stream) return; // the send ended the stream
      }
    }
    this.sendTimer = process.after(RETRY_CONN_WAIT_US + this.core.sendPassDriftUs, () => this.sendPass(gen));
  }

  // --- deadline loop ------------------------------------------------------------------------------

  private deadlinePass(): void {
    if (this.halted) return;
    const now = this.core.process.now();
    // A snapshot: closing may change the map, and no deadline moves meanwhile (only a response moves one).
    const { list, deadline } = this.order();
    for (let i = 0; i < list.length; i++) {
      if (deadline[i]! < now) {
        const ka = list[i]!;
        this.keepAlives.delete(ka.id);
        this.sortedCache = undefined;
        this.closeKa(ka, 'deadline');
      }
    }
    this.deadlineTimer = this.core.process.after(DEADLINE_LOOP_US, () => this.deadlinePass());
  }

  // --- channels and contexts ----------------------------------------------------------------------

  /** `ka.close()`: closes donec and every channel. The caller removes it from the map. */
  private closeKa(ka: KeepAliveState, reason: KeepAliveCloseReason): void {
    ka.done = true;
    for (const ch of ka.chs) ch.shut(reason);
  }

  /** keepAliveCtxCloser: the caller cancelled its context. */
  private cancel(ch: KeepAliveChannel): void {
    const ctx = ch.ctx;
    if (ctx.cancelled) return;
    ctx.cancelled = true;
    const own = ctxOwner.get(ctx);
    if (this.halted || own === undefined || own.done) return; // l.donec or ka.donec closed first
    const ka = this.keepAlives.get(ch.id);
    if (ka === undefined) return;
    const i = ka.ctxs.indexOf(ctx);
    if (i >= 0) {
      ka.chs[i]?.shut('cancelled');
      ka.ctxs.splice(i, 1);
      ka.chs.splice(i, 1);
      ka.sole = soleOf(ka.chs);
    }
    if (ka.chs.length === 0) {
      this.keepAlives.delete(ka.id);
      this.sortedCache = undefined;
    }
  }

  /** closeRequireLeader, index pairing and its compaction quirk included. */
  private closeRequireLeader(): void {
    for (const ka of this.sorted()) {
      const closed = new Set<number>();
      ka.ctxs.forEach((ctx, i) => {
        if (!ctx.requireLeader) return;
        ka.chs[i]?.shut('no-leader');
        closed.add(i);
      });
      if (closed.size === 0) continue;
      const newChs = ka.chs.filter((_, i) => !closed.has(i));
      ka.ctxs = ka.ctxs.slice(0, newChs.length);
      ka.chs = newChs;
      ka.sole = soleOf(newChs);
    }
  }

  /** The keepalives in ascending lease ID (Go iterates a map; this is the documented order), cached. */
  private sorted(): readonly KeepAliveState[] {
    return this.order().list;
  }

  private order(): KeepAliveOrder<KeepAliveState> {
    // Rebuilt after any change to the map; callers iterate a snapshot, so deleting while iterating is safe.
    return (this.sortedCache ??= new KeepAliveOrder([...this.keepAlives.values()].sort(byId)));
  }
}

/** Which keepalive state a caller context was registered with (the closer goroutine's captured `donec`). */
const ctxOwner = new WeakMap<CallerCtx, KeepAliveState>();
