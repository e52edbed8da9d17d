import type { ResponseHeader, RpcError } from '../cluster/server/api.js';
import type { EtcdClient } from './client.js';
import { ErrLostWatcher, isRpcError } from './errors.js';

/**
 * key.go waitDeletes(pfx, maxCreateRev), shared by Mutex.Lock and Election.Campaign: repeatedly Range the
 * key under `pfx` with the largest create revision ≤ maxCreateRev and watch it for a DELETE from the
 * Range's header revision, until none is left; `done` gets the header of that last, empty Range.
 */
export function waitDeletes(
  client: EtcdClient,
  pfx: string,
  maxCreateRev: number,
  done: (err: RpcError | undefined, header?: ResponseHeader) => void,
): void {
  client.get(pfx, { prefix: true, lastCreatedAtMost: maxCreateRev }, (resp) => {
    if (isRpcError(resp)) return done(resp);
    const last = resp.kvs[0];
    if (last === undefined) return done(undefined, resp.header);
    waitDelete(client, last.key, resp.header.revision, (err) =>
      err !== undefined ? done(err) : waitDeletes(client, pfx, maxCreateRev, done),
    );
  });
}

/** key.go waitDelete: watch `key` from `rev` until a DELETE event. */
function waitDelete(client: EtcdClient, key: string, rev: number, done: (err?: RpcError) => void): void {
  const w = client.watch(
    key,
    { fromRevision: rev },
    {
      onEvents: (events) => {
        if (!events.some((e) => e.type === 'DELETE')) return;
        w.cancel();
        done();
      },
      onError: (e) => done(isRpcError(e) ? e : ErrLostWatcher),
    },
  );
}
