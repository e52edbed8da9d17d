import type { ResponseHeader, RpcError, TxnCompare } from '../cluster/server/api.js';
import type { KeyValue } from '../cluster/mvcc/index.js';
import type { BugSet } from '../switches/bugs.js';
import type { TraceFields } from '../trace/trace.js';
import type { Callback, DeleteResponse, EtcdClient, TxnResponse } from './client.js';
import { ErrLocked, ErrSessionExpired, isRpcError } from './errors.js';
import { lockKey } from './lock-key.js';
import { CLIENT_V3_5, type ClientProfile } from './profile.js';
import type { Session } from './session.js';
import { waitDeletes } from './wait-deletes.js';

export interface MutexOptions {
  /** Client-library release (default 3.5). */
  readonly profile?: ClientProfile;
  /** Overrides the profile's switch: Lock skips the post-wait check of its own key (3.4, etcd#11456). */
  readonly lockSkipsPostWaitCheck?: boolean;
  /** Historical bug switches; `lock-skips-post-wait-check` gives any profile the 3.4 behaviour. */
  readonly bugs?: BugSet;
}

/** What a successful Lock returns. */
export interface LockResult {
  /** The lock key's create revision: the fencing token. */
  readonly revision: number;
  readonly key: string;
  /** Header of the response Lock returned on (tryAcquire's Txn, or the post-wait Get in 3.5). */
  readonly header: ResponseHeader;
}

const NO_KEY = '\x00';

/**
 * concurrency.Mutex (client/v3/concurrency/mutex.go@v3.5.33, key.go; docs/lessor.md §5.4).
 *
 * Each contender writes `pfx/<hex lease>` with its session lease; the owner is the key with the
 * smallest create revision. Lock:
 * 1. tryAcquire, one Txn: if createRevision(myKey) == 0 then Put(myKey, "", lease) + Range(first created
 *    under pfx/) else Range(myKey) + Range(first created). myRev = the header revision after the Put, or
 *    the existing key's create revision.
 * 2. If the first-created key is mine (or there is none), the lock is held.
 * 3. Otherwise waitDeletes: repeatedly Range the key with the largest create revision ≤ myRev − 1 and
 *    watch it for a DELETE from the Range's header revision, until none is left.
 * 4. 3.5: Get myKey; gone → ErrSessionExpired (the session lease expired while waiting). 3.4 skips this
 *    and returns success even if the key is gone.
 * A failed wait deletes myKey (Unlock) and returns the error. Lock does not notice its session ending
 * while it waits (upstream TODO).
 *
 * `isOwner` is the client's *belief* (Lock succeeded, no Unlock since): the thing H1/H2 show can be
 * wrong. `ownerCompare()` is etcd's IsOwner() Cmp, for a Txn that only commits while the key is ours.
 * One operation at a time per Mutex, as in Go.
 */
export class Mutex {
  private myKey = NO_KEY;
  private myRev = -1;
  private hdr: ResponseHeader | undefined;
  private held = false;
  private busy = false;
  readonly profile: ClientProfile;
  private readonly skipPostWaitCheck: boolean;

  constructor(
    readonly session: Session,
    /** The lock name without the trailing slash, e.g. `/locks/payment-42`. */
    readonly name: string,
    opts: MutexOptions = {},
  ) {
    this.profile = opts.profile ?? CLIENT_V3_5;
    const bugged = opts.bugs?.has('lock-skips-post-wait-check') === true;
    this.skipPostWaitCheck = opts.lockSkipsPostWaitCheck ?? (bugged || this.profile.lockSkipsPostWaitCheck);
  }

  private get client(): EtcdClient {
    return this.session.client;
  }

  /** `pfx` as Go stores it: the name plus "/". */
  get prefix(): string {
    return `${this.name}/`;
  }

  /** The lock key, or "\x00" when none (Go's value after Unlock). */
  get key(): string {
    return this.myKey;
  }

  /** The fencing token: the create revision of the lock key; −1 when none. */
  get myRevision(): number {
    return this.myRev;
  }

  get header(): ResponseHeader | undefined {
    return this.hdr;
  }

  /** The client believes it holds the lock (Lock returned success and Unlock has not run). */
  get isOwner(): boolean {
    return this.held;
  }

  /** Mutex.IsOwner(): a Txn compare that holds while the lock key still has my create revision. */
  ownerCompare(): TxnCompare {
    return { key: this.myKey, target: 'CREATE', result: 'EQUAL', createRevision: this.myRev };
  }

  lock(cb: Callback<LockResult>): void {
    this.begin('lock');
    this.tryAcquire((resp) => {
      if (isRpcError(resp)) return this.fail(cb, resp);
      if (this.ownsFirst(resp)) return this.acquired(cb, resp.header);
      this.trace('client-lock-waiting', { name: this.name, rev: this.myRev });
      waitDeletes(this.client, this.prefix, this.myRev - 1, (werr, header) => {
        if (werr !== undefined) return this.unlockThenFail(cb, werr);
        if (header !== undefined) this.hdr = header; // 3.4 takes the header from waitDeletes
        if (this.skipPostWaitCheck) return this.acquired(cb, this.hdr ?? resp.header);
        this.client.get(this.myKey, {}, (g) => {
          if (isRpcError(g)) return this.unlockThenFail(cb, g);
          if (g.kvs.length === 0) return this.fail(cb, ErrSessionExpired);
          this.acquired(cb, g.header);
        });
      });
    });
  }

  /** TryLock (3.5): one tryAcquire; another owner → delete my key and return ErrLocked. */
  tryLock(cb: Callback<LockResult>): void {
    this.begin('tryLock');
    this.tryAcquire((resp) => {
      if (isRpcError(resp)) return this.fail(cb, resp);
      if (this.ownsFirst(resp)) return this.acquired(cb, resp.header);
      this.client.delete(this.myKey, (d) => {
        if (isRpcError(d)) return this.fail(cb, d);
        this.myKey = NO_KEY;
        this.myRev = -1;
        this.fail(cb, ErrLocked);
      });
    });
  }

  /** Unlock: delete my key. The belief `isOwner` ends at once, before the answer. */
  unlock(cb: Callback<DeleteResponse> = () => {}): void {
    this.held = false;
    const rev = this.myRev;
    this.client.delete(this.myKey, (res) => {
      if (!isRpcError(res)) {
        this.trace('client-unlock', { name: this.name, rev });
        this.myKey = NO_KEY;
        this.myRev = -1;
      }
      cb(res);
    });
  }

  // --- steps ----------------------------------------------------------------------------------------

  private begin(op: string): void {
    if (this.busy) throw new Error(`mutex ${this.name}: ${op} while another operation is in progress`);
    this.busy = true;
  }

  private tryAcquire(cb: Callback<TxnResponse>): void {
    const s = this.session;
    this.myKey = lockKey(this.name, s.lease);
    const ownerRange = { op: 'Range', key: this.prefix, prefix: true, firstCreated: true } as const;
    this.client.txn(
      {
        compare: [{ key: this.myKey, target: 'CREATE', result: 'EQUAL', createRevision: 0 }],
        success: [{ op: 'Put', key: this.myKey, value: '', lease: s.lease }, ownerRange],
        failure: [{ op: 'Range', key: this.myKey }, ownerRange],
      },
      (resp) => {
        if (!isRpcError(resp)) {
          this.myRev = resp.header.revision;
          if (!resp.succeeded) this.myRev = firstKv(resp, 0)?.createRevision ?? -1;
        }
        cb(resp);
      },
    );
  }

  private ownsFirst(resp: TxnResponse): boolean {
    const owner = firstKv(resp, 1);
    return owner === undefined || owner.createRevision === this.myRev;
  }

  private acquired(cb: Callback<LockResult>, header: ResponseHeader): void {
    this.busy = false;
    this.held = true;
    this.hdr = header;
    this.trace('client-lock-acquired', { name: this.name, rev: this.myRev });
    cb({ revision: this.myRev, key: this.myKey, header });
  }

  private fail(cb: Callback<LockResult>, err: RpcError): void {
    this.busy = false;
    this.trace('client-lock-failed', { name: this.name, rev: this.myRev, error: err.name });
    cb(err);
  }

  /** A failed wait releases my key (`m.Unlock(client.Ctx())`, result ignored) and returns the error. */
  private unlockThenFail(cb: Callback<LockResult>, err: RpcError): void {
    this.client.delete(this.myKey, () => {});
    this.myKey = NO_KEY;
    this.myRev = -1;
    this.fail(cb, err);
  }

  private trace<K extends 'client-lock-waiting' | 'client-lock-acquired' | 'client-lock-failed' | 'client-unlock'>(
    kind: K,
    fields: TraceFields[K],
  ): void {
    const t = this.client.core.tracer;
    if (t.on) t.emit(kind, undefined, fields);
  }
}

function firstKv(resp: TxnResponse, i: number): KeyValue | undefined {
  const r = resp.responses[i];
  return r !== undefined && r.op === 'Range' ? r.kvs[0] : undefined;
}
