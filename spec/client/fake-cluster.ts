// A small in-memory stand-in for the simulated cluster, implementing the client-facing ClusterTransport:
// one linearizable lease table and revisioned KV shared by every member (no raft), with a virtual
// network in front. Enough to test the client honestly:
// - leases expire on the virtual clock and are revoked (keys deleted, one revision) on the first
//   500 ms lessor tick at or after their expiry; a renew of an expired, not yet revoked lease blocks
//   until the revoke and then answers TTL 0 (docs/lessor.md §9.7); unknown leases answer TTL 0 on KeepAlive and
//   TTL −1 on TimeToLive; Grant clamps to the minimum TTL;
// - KeepAlive streams are handled serially, each response's header filled before the renew;
// - the KV has create/mod revisions, versions, lease attachment, Txn with create-revision compares,
//   first/last-created prefix ranges, and a history so a watch can start from a past revision;
// - fault controls: one-way latency, a member (or a client) unreachable — requests and answers simply
//   vanish —, a member that answers every request with an error, and closing a member's keepalive
//   streams with an error (ErrNoLeader).
// Callbacks reach the client through its Process, so they are held while it is paused.
import type { Process } from '../../src/clock/process.js';
import type { Scheduler } from '../../src/clock/scheduler.js';
import type {
  ClientRequest,
  ClientResponse,
  ClusterTransport,
  KeepAliveHandlers,
  KeepAliveStream,
  OpResponse,
  RangeRequest,
  ResponseHeader,
  RpcError,
  TxnOp,
  WatchHandlers,
  WatchStream,
} from '../../src/cluster/server/api.js';
import type { KeyValue, WatchEvent } from '../../src/cluster/mvcc/index.js';

export const NO_LEADER: RpcError = { code: 'Unavailable', name: 'ErrNoLeader', message: 'etcdserver: no leader' };
export const LEASE_NOT_FOUND: RpcError = {
  code: 'NotFound',
  name: 'ErrLeaseNotFound',
  message: 'etcdserver: requested lease not found',
};
export const LEASE_EXISTS: RpcError = {
  code: 'FailedPrecondition',
  name: 'ErrLeaseExists',
  message: 'etcdserver: lease already exists',
};
export const TTL_TOO_LARGE: RpcError = {
  code: 'OutOfRange',
  name: 'ErrLeaseTTLTooLarge',
  message: 'etcdserver: too large lease TTL',
};

const SECOND = 1_000_000;

interface FakeLease {
  readonly id: bigint;
  readonly ttl: number;
  expiry: number;
  readonly keys: Set<string>;
  /** Renews blocked on this expired lease, released by its revoke. */
  waiters: (() => void)[];
}

type Kv = KeyValue;

export interface RequestRecord {
  readonly t: number;
  readonly member: string;
  readonly client: string;
  readonly op: ClientRequest['op'] | 'KeepAlive' | 'Watch';
  readonly id?: bigint;
}

export interface RevokeRecord {
  readonly t: number;
  readonly id: bigint;
  readonly expired: boolean;
  readonly keys: readonly string[];
  readonly revision: number;
}

export interface FakeClusterOptions {
  readonly members?: readonly string[];
  /** One-way client↔member delay, µs (≥ 1). */
  readonly latencyUs?: number;
  /** Smallest TTL Grant hands out (etcd: ⌈1.5 × election timeout⌉ = 2 s by default). */
  readonly minTtl?: number;
  /** Lessor tick: expired leases are revoked on the first tick at or after their expiry. */
  readonly tickUs?: number;
}

/** A pending write transaction: every write gets the same main revision. */
class Batch {
  sub = 0;
  readonly events: WatchEvent[] = [];
  constructor(readonly rev: number) {}
}

export class FakeCluster {
  readonly members: readonly string[];
  readonly latencyUs: number;
  readonly minTtl: number;
  readonly tickUs: number;
  private rev = 1;
  private readonly kv = new Map<string, Kv>();
  private readonly leaseTable = new Map<bigint, FakeLease>();
  private readonly history: WatchEvent[] = [];
  private readonly watchers = new Set<FakeWatch>();
  private readonly streams = new Set<FakeKeepAliveStream>();
  private readonly unreachable = new Set<string>();
  private readonly cut = new Set<string>();
  private readonly errors = new Map<string, RpcError>();
  private nextId = 0x694d7a1b2c00n;
  /** Every request as it reached a member (keepalive sends included). */
  readonly requests: RequestRecord[] = [];
  readonly revokes: RevokeRecord[] = [];

  constructor(
    readonly sched: Scheduler,
    opts: FakeClusterOptions = {},
  ) {
    this.members = opts.members ?? ['n1', 'n2', 'n3'];
    this.latencyUs = opts.latencyUs ?? 1_000;
    if (!Number.isInteger(this.latencyUs) || this.latencyUs < 1)
      throw new RangeError('fake cluster: latency must be ≥ 1 µs');
    this.minTtl = opts.minTtl ?? 2;
    this.tickUs = opts.tickUs ?? 500_000;
  }

  // --- fault controls -------------------------------------------------------------------------------

  /** An unreachable (or dead, or paused) member: nothing reaches it, nothing comes back. */
  setReachable(member: string, reachable: boolean): void {
    if (reachable) this.unreachable.delete(member);
    else this.unreachable.add(member);
  }

  /** Cuts one client off from every member (its requests and answers vanish). */
  setClientCut(client: string, isCut: boolean): void {
    if (isCut) this.cut.add(client);
    else this.cut.delete(client);
  }

  /** The member answers every request with `err` (and ends keepalive streams and watches with it). */
  setError(member: string, err: RpcError | undefined): void {
    if (err === undefined) this.errors.delete(member);
    else this.errors.set(member, err);
  }

  /** Ends every open keepalive stream on `member` with `err` (what a member that lost its leader does). */
  closeKeepAliveStreams(member: string, err: RpcError = NO_LEADER): number {
    let n = 0;
    for (const s of [...this.streams]) {
      if (s.member !== member) continue;
      s.end(err);
      n++;
    }
    return n;
  }

  // --- direct server-side operations (the harness acting as another client, instantly) ----------------

  grantNow(ttl: number, id?: bigint): bigint {
    const r = this.grant(ttl, id ?? 0n);
    if ('code' in r) throw new Error(r.message);
    return r.id;
  }

  revokeNow(id: bigint): void {
    this.revoke(id, false);
  }

  putNow(key: string, value: string, lease = 0n): number {
    const b = this.begin();
    this.put(b, key, value, lease);
    this.commit(b);
    return this.rev;
  }

  // --- inspection -----------------------------------------------------------------------------------

  get revision(): number {
    return this.rev;
  }

  getKey(key: string): KeyValue | undefined {
    return this.kv.get(key);
  }

  leaseExists(id: bigint): boolean {
    return this.leaseTable.has(id);
  }

  leaseExpiry(id: bigint): number | undefined {
    return this.leaseTable.get(id)?.expiry;
  }

  keepAliveArrivals(id?: bigint, member?: string): RequestRecord[] {
    return this.requests.filter(
      (r) => r.op === 'KeepAlive' && (id === undefined || r.id === id) && (member === undefined || r.member === member),
    );
  }

  get openKeepAliveStreams(): number {
    return this.streams.size;
  }

  // --- the transport ----------------------------------------------------------------------------------

  /** The transport one client (running on `process`) uses. */
  transportFor(process: Process): ClusterTransport {
    return {
      members: this.members,
      unary: (to, req, cb) => {
        const gen = process.generation;
        this.toMember(process, to, () => {
          this.record(to, process.name, req.op, 'id' in req ? req.id : undefined);
          const err = this.errors.get(to);
          const res = err ?? this.handle(to, req);
          this.toClient(process, gen, to, () => cb(res));
        });
      },
      openKeepAlive: (to, handlers) => new FakeKeepAliveStream(this, process, to, handlers).open(),
      watch: (to, key, opts, handlers) => new FakeWatch(this, process, to, key, opts, handlers).open(),
    };
  }

  /** @internal client → member after the latency, if the member is reachable on arrival. */
  toMember(process: Process, member: string, fn: () => void): void {
    this.sched.after(this.latencyUs, () => {
      if (this.reachable(member, process.name)) fn();
    });
  }

  /** @internal member → client after the latency, delivered on the client's process. */
  toClient(process: Process, gen: number, member: string, fn: () => void): void {
    if (!this.reachable(member, process.name)) return;
    this.sched.after(this.latencyUs, () => {
      if (this.reachable(member, process.name)) process.runFromOutside(gen, fn);
    });
  }

  /** @internal */
  reachable(member: string, client: string): boolean {
    return !this.unreachable.has(member) && !this.cut.has(client);
  }

  /** @internal */
  errorOf(member: string): RpcError | undefined {
    return this.errors.get(member);
  }

  /** @internal */
  record(member: string, client: string, op: RequestRecord['op'], id?: bigint): void {
    this.requests.push({ t: this.sched.now(), member, client, op, ...(id !== undefined ? { id } : {}) });
  }

  /** @internal */
  header(member: string): ResponseHeader {
    return { memberId: member, revision: this.rev, raftTerm: 1 };
  }

  /** @internal */
  addStream(s: FakeKeepAliveStream): void {
    this.streams.add(s);
  }

  /** @internal */
  removeStream(s: FakeKeepAliveStream): void {
    this.streams.delete(s);
  }

  /** @internal */
  addWatcher(w: FakeWatch): void {
    this.watchers.add(w);
  }

  /** @internal */
  removeWatcher(w: FakeWatch): void {
    this.watchers.delete(w);
  }

  /** @internal events with revision ≥ from, grouped by revision. */
  historyFrom(from: number): WatchEvent[][] {
    const groups: WatchEvent[][] = [];
    for (const e of this.history) {
      if (e.revision < from) continue;
      const g = groups[groups.length - 1];
      if (g !== undefined && g[0]!.revision === e.revision) g.push(e);
      else groups.push([e]);
    }
    return groups;
  }

  /**
   * @internal LeaseKeepAlive's renew. Returns the TTL, or undefined after registering `resume` when the
   * lease has expired and its revoke has not run yet (the renew blocks until then).
   */
  renew(id: bigint, resume: () => void): number | undefined {
    const l = this.leaseTable.get(id);
    if (l === undefined) return 0;
    const now = this.sched.now();
    if (l.expiry <= now) {
      l.waiters.push(resume);
      return undefined;
    }
    l.expiry = now + l.ttl * SECOND;
    this.scheduleExpiry(l);
    return l.ttl;
  }

  // --- request handling -------------------------------------------------------------------------------

  private handle(member: string, req: ClientRequest): ClientResponse | RpcError {
    switch (req.op) {
      case 'LeaseGrant': {
        const r = this.grant(req.ttl, req.id);
        return 'code' in r ? r : { op: 'LeaseGrant', header: this.header(member), id: r.id, ttl: r.ttl };
      }
      case 'LeaseRevoke':
        if (!this.leaseTable.has(req.id)) return LEASE_NOT_FOUND;
        this.revoke(req.id, false);
        return { op: 'LeaseRevoke', header: this.header(member) };
      case 'LeaseTimeToLive': {
        const l = this.leaseTable.get(req.id);
        if (l === undefined)
          return { op: 'LeaseTimeToLive', header: this.header(member), id: req.id, ttl: -1, grantedTTL: 0, keys: [] };
        const remaining = Math.trunc((l.expiry - this.sched.now()) / SECOND);
        const keys = req.keys ? [...l.keys].sort() : [];
        return {
          op: 'LeaseTimeToLive',
          header: this.header(member),
          id: req.id,
          ttl: remaining,
          grantedTTL: l.ttl,
          keys,
        };
      }
      case 'LeaseLeases':
        return {
          op: 'LeaseLeases',
          header: this.header(member),
          ids: [...this.leaseTable.keys()].sort((a, b) => (a < b ? -1 : 1)),
        };
      case 'Range':
        return { op: 'Range', header: this.header(member), ...rangeBody(this.range(req)) };
      case 'Put': {
        if (req.lease !== 0n && !this.leaseTable.has(req.lease)) return LEASE_NOT_FOUND;
        const prev = this.kv.get(req.key)?.lease ?? 0n;
        const b = this.begin();
        this.put(b, req.key, req.value, req.lease);
        this.commit(b);
        return { op: 'Put', header: this.header(member), prevLease: prev };
      }
      case 'DeleteRange': {
        const b = this.begin();
        const deleted = this.del(b, req.key);
        this.commit(b);
        return { op: 'DeleteRange', header: this.header(member), deleted };
      }
      case 'Txn': {
        const ok = req.compare.every((c) => {
          // The client library compares only create revisions for equality.
          if (c.target !== 'CREATE' || c.result !== 'EQUAL') throw new Error('fake cluster: only CREATE = compares');
          return (this.kv.get(c.key)?.createRevision ?? 0) === (c.createRevision ?? 0);
        });
        const ops = ok ? req.success : req.failure;
        for (const op of ops)
          if (op.op === 'Put' && op.lease !== 0n && !this.leaseTable.has(op.lease)) return LEASE_NOT_FOUND;
        const b = this.begin();
        const responses = ops.map((op) => this.apply(b, op));
        this.commit(b);
        return { op: 'Txn', header: this.header(member), succeeded: ok, responses };
      }
      case 'Compaction':
        throw new Error('fake cluster: Compaction is not modelled');
    }
  }

  private apply(b: Batch, op: TxnOp): OpResponse {
    switch (op.op) {
      case 'Range':
        return { op: 'Range', revision: b.rev, ...rangeBody(this.range(op)) };
      case 'Put':
        this.put(b, op.key, op.value, op.lease);
        return { op: 'Put', revision: b.rev };
      case 'DeleteRange':
        return { op: 'DeleteRange', revision: b.rev, deleted: this.del(b, op.key) };
      case 'Txn':
        throw new Error('fake cluster: nested Txn is not modelled');
    }
  }

  private grant(ttl: number, id: bigint): { id: bigint; ttl: number } | RpcError {
    if (ttl > 9_000_000_000) return TTL_TOO_LARGE;
    const granted = Math.max(ttl, this.minTtl);
    const lid = id !== 0n ? id : this.nextId++;
    if (this.leaseTable.has(lid)) return LEASE_EXISTS;
    const l: FakeLease = {
      id: lid,
      ttl: granted,
      expiry: this.sched.now() + granted * SECOND,
      keys: new Set(),
      waiters: [],
    };
    this.leaseTable.set(lid, l);
    this.scheduleExpiry(l);
    return { id: lid, ttl: granted };
  }

  private scheduleExpiry(l: FakeLease): void {
    const at = Math.ceil(l.expiry / this.tickUs) * this.tickUs;
    this.sched.at(Math.max(at, this.sched.now()), () => {
      if (this.leaseTable.get(l.id) === l && l.expiry <= this.sched.now()) this.revoke(l.id, true);
    });
  }

  private revoke(id: bigint, expired: boolean): void {
    const l = this.leaseTable.get(id);
    if (l === undefined) return;
    const keys = [...l.keys].sort();
    const b = this.begin();
    for (const k of keys) this.del(b, k);
    this.leaseTable.delete(id);
    this.commit(b);
    this.revokes.push({ t: this.sched.now(), id, expired, keys, revision: this.rev });
    for (const w of l.waiters.splice(0)) w();
  }

  private range(req: RangeRequest): KeyValue[] {
    if (req.prefix !== true) {
      const kv = this.kv.get(req.key);
      return kv === undefined ? [] : [kv];
    }
    let kvs = [...this.kv.values()]
      .filter((kv) => kv.key.startsWith(req.key))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    if (req.lastCreatedAtMost !== undefined) {
      const max = req.lastCreatedAtMost;
      kvs = kvs
        .filter((kv) => kv.createRevision <= max)
        .sort((a, b) => b.createRevision - a.createRevision)
        .slice(0, 1);
    } else if (req.firstCreated === true) {
      kvs = kvs.sort((a, b) => a.createRevision - b.createRevision).slice(0, 1);
    }
    return kvs;
  }

  private begin(): Batch {
    return new Batch(this.rev + 1);
  }

  private put(b: Batch, key: string, value: string, lease: bigint): void {
    const old = this.kv.get(key);
    if (old !== undefined && old.lease !== 0n) this.leaseTable.get(old.lease)?.keys.delete(key);
    const kv: Kv = {
      key,
      value,
      createRevision: old?.createRevision ?? b.rev,
      modRevision: b.rev,
      version: (old?.version ?? 0) + 1,
      lease,
    };
    this.kv.set(key, kv);
    if (lease !== 0n) this.leaseTable.get(lease)?.keys.add(key);
    b.events.push({ type: 'PUT', key, revision: b.rev, subRevision: b.sub++, value, lease });
  }

  private del(b: Batch, key: string): number {
    const old = this.kv.get(key);
    if (old === undefined) return 0;
    this.kv.delete(key);
    if (old.lease !== 0n) this.leaseTable.get(old.lease)?.keys.delete(key);
    b.events.push({ type: 'DELETE', key, revision: b.rev, subRevision: b.sub++, lease: 0n });
    return 1;
  }

  private commit(b: Batch): void {
    if (b.events.length === 0) return;
    this.rev = b.rev;
    this.history.push(...b.events);
    for (const w of [...this.watchers]) w.notify(b.events);
  }
}

/** The server's end of one LeaseKeepAlive stream: requests handled one at a time, in order. */
class FakeKeepAliveStream {
  private readonly gen: number;
  private readonly queue: { id: bigint; header?: ResponseHeader }[] = [];
  private busy = false;
  /** The client closed it. */
  private closed = false;
  /** The server ended it (error). */
  private ended = false;
  /** The open request never reached the member: the stream does not exist there. */
  private lost = false;
  private established = false;

  constructor(
    private readonly c: FakeCluster,
    private readonly process: Process,
    readonly member: string,
    private readonly handlers: KeepAliveHandlers,
  ) {
    this.gen = process.generation;
  }

  open(): KeepAliveStream {
    this.c.addStream(this);
    // The stream exists at the member once the open arrives; if it cannot arrive, it never will.
    if (!this.c.reachable(this.member, this.process.name)) this.lost = true;
    this.c.toMember(this.process, this.member, () => {
      if (this.closed || this.ended) return;
      this.established = true;
      const err = this.c.errorOf(this.member);
      if (err !== undefined) this.end(err);
    });
    return { send: (id) => this.send(id), close: () => this.close() };
  }

  private send(id: bigint): void {
    if (this.closed || this.ended || this.lost) return;
    this.c.toMember(this.process, this.member, () => {
      if (this.closed || this.ended || !this.established) return;
      this.c.record(this.member, this.process.name, 'KeepAlive', id);
      const err = this.c.errorOf(this.member);
      if (err !== undefined) {
        this.end(err);
        return;
      }
      this.queue.push({ id });
      this.pump();
    });
  }

  private pump(): void {
    while (!this.busy && !this.closed && !this.ended) {
      const head = this.queue[0];
      if (head === undefined) return;
      // The header is filled before the renew, so its revision is ≤ the renew's.
      head.header ??= this.c.header(this.member);
      const ttl = this.c.renew(head.id, () => {
        this.busy = false;
        this.pump();
      });
      if (ttl === undefined) {
        this.busy = true;
        return;
      }
      this.queue.shift();
      const r = { header: head.header, id: head.id, ttl };
      this.c.toClient(this.process, this.gen, this.member, () => {
        if (!this.closed) this.handlers.onResponse(r);
      });
    }
  }

  /** Server side: end the stream with an error. */
  end(err: RpcError): void {
    if (this.closed || this.ended) return;
    this.ended = true;
    this.c.removeStream(this);
    this.c.toClient(this.process, this.gen, this.member, () => {
      if (!this.closed) this.handlers.onError(err);
    });
  }

  private close(): void {
    this.closed = true;
    this.c.removeStream(this);
  }
}

/** The server's end of one watch. */
class FakeWatch {
  private readonly gen: number;
  private closed = false;
  private active = false;
  private readonly from: number;

  constructor(
    private readonly c: FakeCluster,
    private readonly process: Process,
    private readonly member: string,
    private readonly key: string,
    private readonly opts: { prefix?: boolean; fromRevision?: number },
    private readonly handlers: WatchHandlers,
  ) {
    this.gen = process.generation;
    this.from = opts.fromRevision ?? 0;
  }

  open(): WatchStream {
    this.c.toMember(this.process, this.member, () => {
      if (this.closed) return;
      this.c.record(this.member, this.process.name, 'Watch');
      const err = this.c.errorOf(this.member);
      if (err !== undefined) {
        this.c.toClient(this.process, this.gen, this.member, () => !this.closed && this.handlers.onError(err));
        return;
      }
      this.active = true;
      const from = this.opts.fromRevision ?? this.c.revision + 1;
      for (const group of this.c.historyFrom(from)) this.notify(group);
      this.c.addWatcher(this);
    });
    return {
      close: () => {
        this.closed = true;
        this.c.removeWatcher(this);
      },
    };
  }

  notify(events: readonly WatchEvent[]): void {
    if (this.closed || !this.active) return;
    const mine = events.filter(
      (e) => (this.opts.prefix === true ? e.key.startsWith(this.key) : e.key === this.key) && e.revision >= this.from,
    );
    if (mine.length === 0) return;
    const header = this.c.header(this.member);
    this.c.toClient(this.process, this.gen, this.member, () => !this.closed && this.handlers.onEvents(mine, header));
  }
}

function rangeBody(kvs: KeyValue[]): { kvs: KeyValue[]; more: boolean; count: number } {
  return { kvs, more: false, count: kvs.length };
}
