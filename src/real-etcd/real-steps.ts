/**
 * The real-etcd driver's step table: for each step kind, how the driver performs it on live etcd, or why
 * it refuses it (refusals.ts turns that into a message before the run). Keyed like the scenario layer's
 * table (scenario/step-kinds.ts); the mapped type makes the compiler demand an entry for a new kind.
 */
import type { FieldKind, StepOf } from '../scenario/step-kinds.js';
import { leaseLabels as txnLeaseLabels, toRequest } from '../scenario/kinds/txn-steps.js';
import { grantMany } from './grant-many.js';
import { failedOnceSubject, renewSubject } from './observed.js';
import type { RealStepReplay } from './real-step-replay.js';
import { sleepUntil } from './wall-clock.js';

export type RealStepEntry<K extends FieldKind> =
  | { readonly refused: string }
  | {
      /**
       * True when the step reaches etcd only through a request: the simulation sees it take effect only
       * after the network delay, so the driver sends it after the instant's `expect` reads.
       */
      readonly sendsRequest: boolean;
      readonly perform: (s: StepOf<K>, r: RealStepReplay) => Promise<void> | void;
      /** Why this step's fields (not its kind) cannot be replayed, if they cannot. */
      readonly refuse?: (s: StepOf<K>) => string | undefined;
    };

const why = (e: unknown): string => (e instanceof Error ? e.message : String(e));
const NO_MUTEX = 'concurrency.Mutex sessions are not driven on real etcd by this driver';
const APP_STEPS = 'steps on programs under test run only under serve (lessor-sim serve FILE -- CMD)';
const ETCDCTL_CLIENTS =
  "the driver's scenario clients are etcdctl lease keep-alive processes, which send no other request";
/** A keepalive-once's lease as `diff` names it: its label, else its raw ID as the simulation's side does. */
const subjectOf = (s: { lease?: string; leaseId?: bigint }): string =>
  s.lease ?? `lease ${(s.leaseId ?? 0n).toString(16)}`;
/** A grant or revoke sent by a scenario client rather than etcdctl. */
const byClient = (s: { client?: string }): string | undefined =>
  s.client === undefined ? undefined : `client: ${s.client}: ${ETCDCTL_CLIENTS}`;
// etcdctl lock holds one session per process for one lock, so it cannot share, close or orphan a named session.
const NO_ELECTION =
  'concurrency.Election needs a named session, which this driver does not drive (see session); ' +
  'etcdctl elect campaigns in a private one';
const NO_SESSION =
  'concurrency.Session is not driven on real etcd by this driver (etcdctl lock makes one private ' +
  'session per process, which cannot be shared by locks, closed or orphaned on cue)';

export const REAL_STEPS: { readonly [K in FieldKind]: RealStepEntry<K> } = {
  grant: {
    sendsRequest: true,
    refuse: byClient,
    perform: (s, r) =>
      r.request(s, `grant ${s.lease}`, async (m) => {
        try {
          const id = s.idOf === undefined ? (s.id ?? 0n) : await r.lease(s.idOf);
          const res = await r.named(
            s.as,
            'grant',
            () => m.rpc.leaseGrant(s.ttlSeconds, id),
            (v) => ({ ttl: v.ttl, id: v.id }),
          );
          r.ids.bind(s.lease, res.id);
          r.observe('grant', s.lease, res.ttl);
        } catch (e) {
          r.ids.fail(s.lease, `the grant of ${s.lease} failed: ${why(e)}`);
          throw e;
        }
      }),
  },
  revoke: {
    sendsRequest: true,
    refuse: byClient,
    perform: (s, r) =>
      r.request(s, `revoke ${s.lease}`, async (m) => {
        const id = await r.lease(s.lease);
        await r.named(
          s.as,
          'revoke',
          () => m.rpc.leaseRevoke(id),
          (revision) => ({ revision }),
        );
        r.observe('revoke', s.lease);
      }),
  },
  put: {
    sendsRequest: true,
    perform: (s, r) =>
      r.request(s, `put ${s.key}`, async (m) => {
        const lease = s.leaseId ?? (s.lease === undefined ? 0n : await r.lease(s.lease));
        const put = () => m.rpc.put(s.key, s.value, lease);
        r.observe('put', s.key, await r.named(s.as, 'put', put, (revision) => ({ revision })));
      }),
  },
  compact: {
    sendsRequest: true,
    perform: (s, r) =>
      r.request(s, `compact ${s.revision}`, async (m) => {
        await r.named(
          s.as,
          'compact',
          () => m.rpc.compact(s.revision),
          (revision) => ({ revision }),
        );
      }),
  },
  txn: {
    sendsRequest: true,
    perform: (s, r) =>
      r.request(s, 'txn', async (m) => {
        const ids: Record<string, bigint> = {};
        for (const label of txnLeaseLabels(s)) ids[label] = await r.lease(label);
        await r.named(
          s.as,
          'txn',
          () => m.rpc.txn(toRequest(s, ids)),
          (v) => ({ revision: v.revision, succeeded: v.succeeded, responses: v.responses }),
        );
      }),
  },
  delete: {
    sendsRequest: true,
    perform: (s, r) =>
      r.request(s, `delete ${s.key}`, async (m) => {
        await r.named(
          s.as,
          'delete',
          () => m.rpc.deleteKey(s.key),
          (v) => ({ revision: v.revision }),
        );
      }),
  },
  keepalive: {
    sendsRequest: false,
    refuse: (s) => {
      if (s.requireLeader === true)
        return 'require-leader: etcdctl lease keep-alive calls KeepAlive with context.TODO(), never WithRequireLeader';
      const field = s.as !== undefined ? 'as' : s.unreadBuffer !== undefined ? 'unread-buffer' : undefined;
      return field === undefined
        ? undefined
        : `${field}: a named KeepAlive call is a clientv3 channel; ${ETCDCTL_CLIENTS}`;
    },
    perform: (s, r) => {
      const start = (id: bigint): Promise<void> =>
        r.enqueue(`client ${s.client}`, s.atUs, `keepalive ${s.lease} (line ${s.pos.line})`, () =>
          r.clients.start(s.client, s.lease, id, s.via),
        );
      const id = r.ids.now(s.lease);
      if (typeof id === 'bigint') return start(id);
      // As in the simulation, a keep-alive of a lease whose grant is still in flight starts once it is
      // answered; meanwhile the client's other steps go on.
      r.inBackground(
        r.ids
          .wait(s.lease)
          .then((v) => (typeof v === 'bigint' ? start(v) : r.note(s.atUs, `keepalive ${s.lease}: ${v}`))),
      );
    },
  },
  'keepalive-stop': {
    sendsRequest: false,
    perform: (s, r) =>
      r.enqueue(`client ${s.client}`, s.atUs, `keepalive-stop ${s.lease}`, () => r.clients.stop(s.client, s.lease)),
  },
  'keepalive-once': {
    sendsRequest: true,
    perform: (s, r) =>
      r.request(s, `keepalive-once ${subjectOf(s)}`, async (m) => {
        const id = s.lease === undefined ? (s.leaseId ?? 0n) : await r.lease(s.lease);
        // clientv3's KeepAliveOnce turns a TTL 0 answer into ErrLeaseNotFound, as the simulated client does.
        const once = () => m.rpc.keepAliveOnce(id);
        const values = (ttl: number) => (ttl <= 0 ? { error: 'ErrLeaseNotFound' } : { ttl, id });
        const ttl = await r.named(s.as, 'keepalive-once', once, values).catch((e: unknown) => {
          r.observe('error', failedOnceSubject(subjectOf(s)));
          throw e;
        });
        // A TTL 0 answer (lease not found) is recorded too: etcd sends it as a response, not an error;
        // clientv3's KeepAliveOnce then fails with ErrLeaseNotFound, as the simulated client does.
        r.observe('renew', renewSubject(subjectOf(s), undefined), ttl);
        if (ttl <= 0) r.observe('error', failedOnceSubject(subjectOf(s)));
      }),
  },
  'keepalive-cancel': {
    refused: `named KeepAlive calls are clientv3 channels; ${ETCDCTL_CLIENTS}`,
  },
  'client-close': {
    sendsRequest: false,
    // Closing the client ends its keep-alive processes, as Client.Close ends its keep-alive loop.
    perform: (s, r) =>
      r.enqueue(`client ${s.client}`, s.atUs, `client-close ${s.client}`, () => r.clients.close(s.client)),
  },
  pause: {
    sendsRequest: false,
    refuse: (s) => (s.app !== undefined ? APP_STEPS : undefined),
    perform: (s, r) => {
      signal(r, 'pause', s.member, s.client);
      if (s.forUs !== undefined)
        r.inBackground(sleepUntil(r.wallUs(s.atUs + s.forUs)).then(() => signal(r, 'resume', s.member, s.client)));
    },
  },
  resume: {
    sendsRequest: false,
    refuse: (s) => (s.app !== undefined ? APP_STEPS : undefined),
    perform: (s, r) => signal(r, 'resume', s.member, s.client),
  },
  stall: {
    refused:
      'stalling one loop of a member needs a fault-injecting etcd build; the driver can only signal the whole process',
  },
  unstall: { refused: 'stalls are not supported (no fault-injecting etcd build), so there is nothing to unstall' },
  crash: { sendsRequest: false, perform: (s, r) => r.cluster.crash(s.member) },
  restart: {
    sendsRequest: false,
    refuse: (s) => (s.app !== undefined ? APP_STEPS : undefined),
    perform: async (s, r) => {
      const member = s.member!; // refused above when the step names an app instead
      const problem = await r.cluster.restart(member);
      if (problem !== undefined) return r.note(s.atUs, problem);
      r.inBackground(r.rejoin(member, s.atUs));
    },
  },
  kill: { refused: APP_STEPS },
  cut: { refused: APP_STEPS },
  'transfer-leader': {
    sendsRequest: true,
    // Beside the replay, not before the next step: a request at the same instant or just after races the
    // transfer, as in the simulation.
    perform: (s, r) =>
      r.inBackground(
        r.cluster
          .makeLeader(r.cluster.member(s.to))
          .catch(why)
          .then((problem) => problem !== undefined && r.note(s.atUs, `transfer-leader to ${s.to}: ${problem}`)),
      ),
  },
  partition: {
    refused: 'partitioning members needs network namespaces, which this driver does not use (loopback only)',
  },
  heal: { refused: 'partitions are not supported (no network namespaces), so there is nothing to heal' },
  clock: {
    refused:
      "jumping one member's wall clock needs a per-process clock " +
      '(libfaketime or a VM); the members share the host clock',
  },
  'grant-many': {
    sendsRequest: true,
    perform: (s, r) => {
      const done = grantMany(
        s,
        r.target(s.via),
        r.wallUs(s.atUs),
        (label, id, ttl) => {
          r.ids.bind(label, id);
          r.observeBulkGrant(label, ttl);
        },
        (label, e) => r.ids.fail(label, `the grant of ${label} failed: ${e}`),
      ).then((res) => {
        if (res.failures > 0)
          r.note(s.atUs, `${res.failures} of ${s.count} grants of ${s.prefix}* failed (first: ${res.firstError})`);
      });
      r.inBackground(done);
    },
  },
  timetolive: {
    sendsRequest: true,
    perform: (s, r) =>
      r.request(s, `timetolive ${s.lease}`, async (m) => {
        const id = await r.lease(s.lease);
        const res = await r.named(
          s.as,
          'timetolive',
          () => m.rpc.leaseTimeToLive(id, s.keys),
          (v) => ({ ttl: v.ttl, grantedTTL: v.grantedTtl, id, keys: v.keys, revision: v.revision }),
        );
        r.observe('ttl', s.lease, res.grantedTtl > 0 ? res.ttl : -1);
      }),
  },
  leases: {
    sendsRequest: true,
    perform: (s, r) =>
      r.request(s, 'leases', async (m) => {
        const ids = await r.named(
          s.as,
          'leases',
          () => m.rpc.leaseLeases(),
          (leases) => ({ leases }),
        );
        r.observe('leases', 'listing', ids.length);
      }),
  },
  lock: { refused: NO_MUTEX },
  trylock: { refused: `${NO_MUTEX}; etcdctl 3.4.23 has no TryLock at all (it came with clientv3 3.5)` },
  session: { refused: NO_SESSION },
  campaign: { refused: NO_ELECTION },
  resign: { refused: NO_ELECTION },
  observe: { refused: NO_ELECTION },
  'session-close': { refused: NO_SESSION },
  'session-orphan': { refused: NO_SESSION },
  unlock: { refused: NO_MUTEX },
  'fenced-write': {
    refused: "fenced resources belong to the simulation's lock clients, which this driver does not run",
  },
  holder: {
    refused:
      'holders are application processes of the simulation; the server answers ' +
      'they depend on are checked by scenarios/differential/holders-*.yaml',
  },
};

/** The entry of a kind; for a step of several possible kinds it takes any of them (see stepEntry). */
export function realStep<K extends FieldKind>(kind: K): RealStepEntry<K> {
  return REAL_STEPS[kind];
}

/** A member pause is SIGSTOP of etcd; a client pause is SIGSTOP of that client's keep-alive processes. */
function signal(
  r: RealStepReplay,
  kind: 'pause' | 'resume',
  member: string | undefined,
  client: string | undefined,
): void {
  if (member !== undefined) return kind === 'pause' ? r.cluster.pause(member) : r.cluster.resume(member);
  if (client !== undefined) return kind === 'pause' ? r.clients.pause(client) : r.clients.resume(client);
}
