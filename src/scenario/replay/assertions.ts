import type { Cluster } from '../../cluster/cluster.js';
import type { KeyValue, MvccStore } from '../../cluster/mvcc/index.js';
import type { EtcdServer } from '../../cluster/server/etcd-server.js';
import type { Lease } from '../../lessor/lease.js';
import type {
  Assertion,
  IntRange,
  KeyCreateRevisionAssertion,
  KeyExistsAssertion,
  KeyVersionAssertion,
  KeyRevisionAssertion,
  KeyValueAssertion,
  LeaseLabel,
  MemberName,
} from '../types.js';
import type { LabelBook } from './labels.js';
import type { SessionBook } from './sessions.js';
import { signalVerdict, type SignalView } from './signal-verdicts.js';
import type { HolderLedger } from '../../holder/index.js';
import { formatDuration } from '../duration.js';
import { answerVerdict } from './answer-verdict.js';
import { etcdErrorName } from '../answer-errors.js';
import { channelCloseError, channelResponses, type Answer, type NamedChannel } from './answers.js';

export interface AssertionVerdict {
  readonly pass: boolean;
  /** What was observed, or why the assertion could not be evaluated. */
  readonly got: string;
}

/** What assertions may look at besides the cluster: the scenario's clients and resources. */
export interface AssertionContext {
  readonly cluster: Cluster;
  readonly labels: LabelBook;
  readonly sessions: SessionBook;
  /** Whether the client's keep-alive channel for the lease is open; undefined if it never started one. */
  keepAliveAlive(client: string, lease: bigint): boolean | undefined;
  lockHeld(client: string, lock: string): boolean;
  resource(name: string): { readonly accepted: number; readonly rejected: number } | undefined;
  /** The run's signals and alerts up to this instant, or why there are none. */
  signalsNow(): SignalView | string;
  /** Truth against belief for the scenario's holders; undefined when no holder step ran yet. */
  readonly holders: HolderLedger | undefined;
  /** The answer a step named with `as`; undefined when that step has not sent its request. */
  namedAnswer(name: string): Answer | undefined;
  /** A named KeepAlive call's channel; undefined until the call is made. */
  namedChannel(name: string): NamedChannel | undefined;
}

const fail = (got: string): AssertionVerdict => ({ pass: false, got });
const verdict = (pass: boolean, got: string): AssertionVerdict => ({ pass, got });

function inRange(v: number, r: IntRange): boolean {
  return (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max);
}

export function describeRange(r: IntRange): string {
  if (r.min !== undefined && r.max !== undefined) return `in [${r.min}, ${r.max}]`;
  return r.min !== undefined ? `>= ${r.min}` : `<= ${r.max}`;
}

/**
 * Evaluates one assertion against the state at this instant, the way the named request would see it:
 * a linearizable read or TimeToLive is answered by the leader; `via` a member makes a key read
 * serializable on that member. Nothing passes by default: a question with no answer fails, saying why.
 */
export function evaluate(a: Assertion, ctx: AssertionContext): AssertionVerdict {
  switch (a.form) {
    case 'key-exists':
    case 'key-value':
    case 'key-revision':
    case 'key-create-revision':
    case 'key-version': {
      const store = readStore(ctx.cluster, a.via);
      if (typeof store === 'string') return fail(store);
      return keyVerdict(a, store.range(a.key));
    }
    case 'lease-exists':
    case 'lease-ttl':
    case 'lease-keys': {
      const found = timeToLive(ctx, a.lease);
      if (typeof found === 'string') return fail(found);
      const { lease, server } = found;
      if (a.form === 'lease-exists')
        return verdict((lease !== undefined) === a.exists, lease === undefined ? 'TTL -1 (not found)' : 'found');
      if (lease === undefined) return fail('TTL -1 (not found)');
      if (a.form === 'lease-keys') {
        const keys = lease.keys();
        const want = [...a.keys].sort();
        return verdict(keys.length === want.length && keys.every((k, i) => k === want[i]), `keys [${keys.join(', ')}]`);
      }
      if (server.behaviour.timeToLiveRejectsDemoted && lease.demoted()) {
        return fail('ErrLeaderChanged (the leader has not promoted its lessor yet)');
      }
      const ttl = lease.remainingSeconds(server.proc.now());
      return verdict(inRange(ttl, a.ttlSeconds), `TTL ${ttl}`);
    }
    case 'leader': {
      const l = ctx.cluster.leader();
      if (l === undefined) return fail('no leader');
      return verdict(
        l.name === a.member && l.lessor.isPrimary(),
        `leader ${l.name}${l.lessor.isPrimary() ? '' : ' (lessor not yet primary)'}`,
      );
    }
    case 'keepalive-alive': {
      const id = ctx.labels.id(a.lease);
      if (id === undefined) return fail(ctx.labels.whyUnbound(a.lease));
      const alive = ctx.keepAliveAlive(a.client, id);
      if (alive === undefined) return fail(`client ${a.client} never started a keep-alive for ${a.lease}`);
      return verdict(alive === a.alive, alive ? 'channel open' : 'channel closed');
    }
    case 'lock-held': {
      const held = ctx.lockHeld(a.client, a.lock);
      return verdict(held === a.held, held ? 'held' : 'not held');
    }
    case 'session-lock-held': {
      if (ctx.sessions.get(a.session) === undefined) return fail(ctx.sessions.whyMissing(a.session));
      const held = ctx.sessions.mutex(a.session, a.lock)?.isOwner ?? false;
      return verdict(held === a.held, held ? 'held' : 'not held');
    }
    case 'election-leader': {
      const store = readStore(ctx.cluster, undefined);
      if (typeof store === 'string') return fail(store);
      const kv = store.firstCreated(`${a.election}/`);
      if (kv === undefined) return fail('no leader (ErrElectionNoLeader)');
      return verdict(kv.value === a.leaderValue, `leader ${JSON.stringify(kv.value)}`);
    }
    case 'election-observed': {
      if (ctx.sessions.get(a.session) === undefined) return fail(ctx.sessions.whyMissing(a.session));
      const seen = ctx.sessions.observed(a.session, a.election) ?? [];
      const same = seen.length === a.observed.length && seen.every((v, i) => v === a.observed[i]);
      return verdict(same, `observed [${seen.map((v) => JSON.stringify(v)).join(', ')}]`);
    }
    case 'lock-contenders': {
      const store = readStore(ctx.cluster, undefined);
      if (typeof store === 'string') return fail(store);
      const n = store.range(`${a.lock}/`, { prefix: true }).length;
      return verdict(n === a.contenders, `${n} keys under ${a.lock}/`);
    }
    case 'session-done': {
      const s = ctx.sessions.get(a.session);
      if (s === undefined) return fail(ctx.sessions.whyMissing(a.session));
      return verdict(s.done === a.done, s.done ? `done (${s.doneReason})` : 'keep-alive running');
    }
    case 'resource-accepted':
    case 'resource-rejected': {
      const r = ctx.resource(a.resource);
      if (r === undefined) return fail(`no write ever reached resource ${a.resource}`);
      return a.form === 'resource-accepted'
        ? verdict(r.accepted === a.accepted, `${r.accepted} accepted`)
        : verdict(r.rejected === a.rejected, `${r.rejected} rejected`);
    }
    case 'revision': {
      const store = readStore(ctx.cluster, a.via);
      if (typeof store === 'string') return fail(store);
      return verdict(inRange(store.currentRevision, a.revision), `revision ${store.currentRevision}`);
    }
    case 'expiry-queue': {
      const s = ctx.cluster.server(a.member);
      if (s === undefined) return fail(`${a.member} is not running`);
      const n = s.lessor.inspect().notifier.length;
      return verdict(inRange(n, a.entries), `${n} entries`);
    }
    case 'leases-count': {
      const s = a.via === undefined ? ctx.cluster.leader() : ctx.cluster.server(a.via);
      if (s === undefined) return fail(a.via === undefined ? 'no leader to list leases' : `${a.via} is not running`);
      const n = s.lessor.leases().length;
      return verdict(n === a.count, `${n} leases`);
    }
    case 'keepalive-channel': {
      const c = ctx.namedChannel(a.channel);
      if (c === undefined) return fail(`keep-alive ${a.channel} has not been called yet`);
      const n = channelResponses(c);
      const reason = c.ch.closeReason;
      const closedBy = reason === undefined ? undefined : channelCloseError(reason);
      const why =
        reason === undefined || a.error === undefined
          ? ''
          : ` (${closedBy === undefined ? 'no error' : etcdErrorName(closedBy)})`;
      const got = `channel ${c.ch.alive ? 'open' : 'closed'}${why}, ${n} responses`;
      return verdict(
        (a.alive === undefined || c.ch.alive === a.alive) &&
          (a.responses === undefined || inRange(n, a.responses)) &&
          (a.error === undefined || (reason !== undefined && closedBy === a.error)),
        got,
      );
    }
    case 'answer':
      return answerVerdict(a, ctx.namedAnswer(a.answer), (l) => ctx.labels.id(l) ?? ctx.labels.whyUnbound(l));
    case 'alert-firing':
    case 'alert-lead':
    case 'metric-value':
      return signalVerdict(a, ctx.signalsNow());
    case 'holder-acting':
    case 'holder-after-loss':
    case 'holder-stale-accepted': {
      const h = ctx.holders;
      if (h === undefined || !h.knows(a.holder)) return fail(`holder ${a.holder} has not acquired its lock yet`);
      if (a.form === 'holder-acting')
        return verdict(h.acting(a.holder) === a.acting, h.acting(a.holder) ? 'believes it holds the lock' : 'does not');
      if (a.form === 'holder-after-loss') {
        const d = h.believedAfterLossUs(a.holder, ctx.cluster.now());
        return verdict(inRange(d, a.afterLossUs), formatDuration(d));
      }
      const w = h.staleWrites(a.holder);
      return verdict(w.accepted === a.staleAccepted, `${w.accepted} stale writes accepted, ${w.rejected} rejected`);
    }
    case 'holders-overlap': {
      const d = ctx.holders?.overlapUs(ctx.cluster.now()) ?? 0;
      return verdict(inRange(d, a.overlapUs), formatDuration(d));
    }
  }
}

/** A key assertion judged on what a read found; shared with the real-etcd replay. */
export function keyVerdict(
  a: KeyExistsAssertion | KeyValueAssertion | KeyRevisionAssertion | KeyCreateRevisionAssertion | KeyVersionAssertion,
  kv: Pick<KeyValue, 'value' | 'modRevision' | 'createRevision' | 'version'> | undefined,
): AssertionVerdict {
  if (a.form === 'key-exists')
    return verdict((kv !== undefined) === a.exists, kv === undefined ? 'absent' : `present (rev ${kv.modRevision})`);
  if (kv === undefined) return fail('absent');
  if (a.form === 'key-value') return verdict(kv.value === a.value, `value ${JSON.stringify(kv.value)}`);
  if (a.form === 'key-create-revision')
    return verdict(inRange(kv.createRevision, a.createRevision), `create revision ${kv.createRevision}`);
  if (a.form === 'key-version') return verdict(inRange(kv.version, a.version), `version ${kv.version}`);
  return verdict(inRange(kv.modRevision, a.revision), `mod revision ${kv.modRevision}`);
}

function readStore(cluster: Cluster, via: MemberName | undefined): MvccStore | string {
  if (via === undefined) {
    const l = cluster.leader();
    return l === undefined ? 'no leader for a linearizable read' : l.store;
  }
  const s = cluster.server(via);
  return s === undefined ? `${via} is not running` : s.store;
}

/** LeaseTimeToLive as the leader answers it (followers forward to the leader). */
function timeToLive(
  ctx: AssertionContext,
  label: LeaseLabel,
): { lease: Lease | undefined; server: EtcdServer } | string {
  const id = ctx.labels.id(label);
  if (id === undefined) return ctx.labels.whyUnbound(label);
  const leader = ctx.cluster.leader();
  if (leader === undefined) return 'no leader to answer LeaseTimeToLive';
  return { lease: leader.lessor.lookup(id), server: leader };
}
