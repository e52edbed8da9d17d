import { Deadline } from './deadline.js';
import { ErrTimeout, ErrTimeoutWaitAppliedIndex, type AnyServerError } from './errors.js';
import type { EtcdServer } from './etcd-server.js';
import { peerCall } from './lease-http.js';

/** etcd retries an unanswered ReadIndex after this long (ReadIndexRetryTime). */
const readIndexRetryUs = 500_000;

/**
 * linearizableReadNotify: get a read index from the leader (this member's raft if it leads, otherwise
 * the leader's over the peer network), then wait until this member has applied up to it.
 */
export function linearizableRead(s: EtcdServer, cb: (err?: AnyServerError) => void): void {
  const d = new Deadline(s.proc, s.timings.reqTimeoutUs, () => cb(ErrTimeout));
  const got = (ok: boolean, index: number): void => {
    if (!d.open) return;
    if (!ok) return void s.proc.after(readIndexRetryUs, attempt);
    s.waitApplied(index, s.timings.reqTimeoutUs, ErrTimeoutWaitAppliedIndex, (err) => d.settle() && cb(err));
  };
  const attempt = (): void => {
    if (!d.open || s.stopped) return;
    if (s.raft.role === 'leader') return s.raft.readIndex(got);
    const leader = s.leader();
    if (leader === undefined) return void s.proc.after(readIndexRetryUs, attempt);
    peerCall<{ ok: boolean; index: number }>(
      s,
      leader,
      (remote, respond) =>
        remote.raft.role === 'leader'
          ? remote.raft.readIndex((ok, index) => respond({ ok, index }))
          : respond({ ok: false, index: 0 }),
      (r) => ('ok' in r ? got(r.ok, r.index) : got(false, 0)),
    );
  };
  attempt();
}
