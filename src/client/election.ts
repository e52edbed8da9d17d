import type { ResponseHeader, RpcError } from '../cluster/server/api.js';
import type { TraceFields } from '../trace/trace.js';
import type { Callback, EtcdClient } from './client.js';
import { ErrElectionNotLeader, isRpcError } from './errors.js';
import { lockKey } from './lock-key.js';
import type { Session } from './session.js';
import { waitDeletes } from './wait-deletes.js';

/** What an observer is told: the leader's key and its value, as Observe's GetResponse carries them. */
export interface LeaderView {
  readonly key: string;
  readonly value: string;
}

/**
 * concurrency.Election (client/v3/concurrency/election.go@v3.5.33), on the Mutex's key scheme: each
 * candidate writes `pfx/<hex lease>` with its value and session lease; the leader is the key with the
 * smallest create revision. Campaign waits, as Lock does, until every older candidate's key is gone;
 * Resign deletes the own key while it still has the campaign's create revision; Observe reports the
 * leader's value each time it changes (a new leader, or a Proclaim). No context: a Campaign cannot be
 * cancelled.
 */
export class Election {
  private leaderKey = '';
  private leaderRev = -1;
  private leading = false;

  constructor(
    readonly session: Session,
    /** The election name without the trailing slash. */
    readonly name: string,
  ) {}

  private get client(): EtcdClient {
    return this.session.client;
  }

  get prefix(): string {
    return `${this.name}/`;
  }

  /** Campaign: become a candidate with `value` and answer once elected. */
  campaign(value: string, cb: Callback<ResponseHeader>): void {
    const k = lockKey(this.name, this.session.lease);
    this.client.txn(
      {
        compare: [{ key: k, target: 'CREATE', result: 'EQUAL', createRevision: 0 }],
        success: [{ op: 'Put', key: k, value, lease: this.session.lease }],
        failure: [{ op: 'Range', key: k }],
      },
      (resp) => {
        if (isRpcError(resp)) return cb(resp);
        this.leaderKey = k;
        this.leaderRev = resp.header.revision;
        this.leading = true;
        const wait = (): void =>
          waitDeletes(this.client, this.prefix, this.leaderRev - 1, (err) => {
            if (err !== undefined) {
              this.leading = false;
              return cb(err);
            }
            this.trace('client-elected', { name: this.name, rev: this.leaderRev });
            cb(resp.header);
          });
        const r = resp.responses[0];
        const kv = !resp.succeeded && r?.op === 'Range' ? r.kvs[0] : undefined;
        if (kv === undefined) return wait();
        // Already a candidate on this session: keep the key's revision, and proclaim a new value.
        this.leaderRev = kv.createRevision;
        if (kv.value === value) return wait();
        this.proclaim(value, (p) => (isRpcError(p) ? this.resign(() => cb(p)) : wait()));
      },
    );
  }

  /** Proclaim: a new value for the leader key, while it is still this campaign's. */
  proclaim(value: string, cb: Callback<ResponseHeader>): void {
    if (!this.leading) return cb(ErrElectionNotLeader);
    this.client.txn(
      {
        compare: [{ key: this.leaderKey, target: 'CREATE', result: 'EQUAL', createRevision: this.leaderRev }],
        success: [{ op: 'Put', key: this.leaderKey, value, lease: this.session.lease }],
        failure: [],
      },
      (resp) => {
        if (isRpcError(resp)) return cb(resp);
        if (!resp.succeeded) {
          this.leaderKey = '';
          return cb(ErrElectionNotLeader);
        }
        cb(resp.header);
      },
    );
  }

  /** Resign: delete the own key if it is still this campaign's; a no-op when not campaigning. */
  resign(cb: Callback<ResponseHeader | undefined>): void {
    if (!this.leading) return cb(undefined);
    const key = this.leaderKey;
    this.leaderKey = '';
    this.leading = false;
    this.client.txn(
      {
        compare: [{ key, target: 'CREATE', result: 'EQUAL', createRevision: this.leaderRev }],
        success: [{ op: 'DeleteRange', key }],
        failure: [],
      },
      (resp) => cb(isRpcError(resp) ? resp : resp.header),
    );
  }

  /**
   * Observe: `onLeader` gets the current leader, then each change of it (Proclaim, or a new leader once
   * the old key is deleted), until the watch fails.
   */
  observe(report: (v: LeaderView) => void, onEnd: (err: RpcError) => void = () => {}): void {
    const c = this.client;
    const onLeader = (v: LeaderView): void => {
      this.trace('client-observed', { name: this.name, value: v.value });
      report(v);
    };
    c.get(this.prefix, { prefix: true, firstCreated: true }, (resp) => {
      if (isRpcError(resp)) return onEnd(resp);
      const kv = resp.kvs[0];
      if (kv !== undefined) {
        onLeader({ key: kv.key, value: kv.value });
        return this.followLeader(kv.key, resp.header.revision + 1, onLeader, report, onEnd);
      }
      // No leader yet: the first PUT under the prefix is the next one.
      const w = c.watch(
        this.prefix,
        { prefix: true, fromRevision: resp.header.revision },
        {
          onEvents: (events) => {
            const put = events.find((e) => e.type === 'PUT');
            if (put === undefined) return;
            w.cancel();
            onLeader({ key: put.key, value: put.value ?? '' });
            this.followLeader(put.key, put.revision + 1, onLeader, report, onEnd);
          },
          onError: onEnd,
        },
      );
    });
  }

  /** Reports each PUT of the leader key; on its DELETE, looks for the next leader. */
  private followLeader(
    key: string,
    from: number,
    onLeader: (v: LeaderView) => void,
    report: (v: LeaderView) => void,
    onEnd: (e: RpcError) => void,
  ): void {
    const w = this.client.watch(
      key,
      { fromRevision: from },
      {
        onEvents: (events) => {
          for (const e of events) {
            if (e.type === 'DELETE') {
              w.cancel();
              return this.observe(report, onEnd);
            }
            onLeader({ key: e.key, value: e.value ?? '' });
          }
        },
        onError: onEnd,
      },
    );
  }

  private trace<K extends 'client-elected' | 'client-observed'>(kind: K, fields: TraceFields[K]): void {
    const t = this.client.core.tracer;
    if (t.on) t.emit(kind, undefined, fields);
  }
}
