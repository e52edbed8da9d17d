/**
 * Evaluates a scenario's `expect` on real etcd with the request the simulation's check stands for
 * (src/scenario/replay/assertions.ts): key reads are linearizable Ranges on the leader (serializable on
 * `via`), lease checks are LeaseTimeToLive, leader is Status. The `got` texts match the simulation's so
 * the two columns read alike. A question real etcd does not answer in time fails, saying why.
 */
import { answerVerdict } from '../scenario/replay/answer-verdict.js';
import type { Answer } from '../scenario/replay/answers.js';
import { keyVerdict, type AssertionVerdict } from '../scenario/replay/assertions.js';
import type { Assertion, IntRange } from '../scenario/types.js';
import type { EtcdCluster } from './etcd-cluster.js';
import type { EtcdMember } from './etcd-member.js';
import { nowUs, sleepMs } from './wall-clock.js';

/** An assertion's read gets this long; longer means the member is stuck (paused, or no leader). */
export const ASSERT_TIMEOUT_MS = 2_000;

export interface RealAssertionContext {
  readonly cluster: EtcdCluster;
  /** The lease ID of a label, or why there is none yet. */
  leaseId(label: string): bigint | string;
  /**
   * The same for a lease check: a grant sent at an earlier instant but not answered yet (a busy host) is
   * waited for, bounded by the read's timeout, as the simulation has answered it by then.
   */
  grantedLeaseId(label: string): Promise<bigint | string>;
  /** Whether the client's keep-alive process for the lease is still running; undefined if never started. */
  keepAliveAlive(client: string, label: string): boolean | undefined;
  /** The answer a step named with `as`; undefined while that step has not sent its request. */
  namedAnswer(name: string): Answer | undefined;
}

const verdict = (pass: boolean, got: string): AssertionVerdict => ({ pass, got });
const fail = (got: string): AssertionVerdict => ({ pass: false, got });
const inRange = (v: number, r: IntRange): boolean =>
  (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max);
const why = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** The member a request goes to: `via`, else the leader. */
async function target(ctx: RealAssertionContext, via: string | undefined): Promise<EtcdMember | string> {
  if (via !== undefined) {
    const m = ctx.cluster.member(via);
    return m.running ? m : `${via} is not running`;
  }
  return (await ctx.cluster.leader()) ?? 'no leader for a linearizable read';
}

export async function evaluateReal(a: Assertion, ctx: RealAssertionContext): Promise<AssertionVerdict> {
  try {
    return await evaluate(a, ctx);
  } catch (e) {
    return fail(`request failed: ${why(e)}`);
  }
}

async function evaluate(a: Assertion, ctx: RealAssertionContext): Promise<AssertionVerdict> {
  switch (a.form) {
    case 'key-exists':
    case 'key-value':
    case 'key-revision':
    case 'key-create-revision':
    case 'key-version':
    case 'revision': {
      const m = await target(ctx, a.via);
      if (typeof m === 'string') return fail(m);
      const key = a.form === 'revision' ? 'lessor-sim/revision-probe' : a.key;
      const { revision, kv } = await m.rpc.range(key, a.via !== undefined, ASSERT_TIMEOUT_MS);
      if (a.form === 'revision') return verdict(inRange(revision, a.revision), `revision ${revision}`);
      return keyVerdict(a, kv);
    }
    case 'lease-exists':
    case 'lease-ttl':
    case 'lease-keys': {
      const id = await ctx.grantedLeaseId(a.lease);
      if (typeof id === 'string') return fail(id);
      const m = await target(ctx, a.via);
      if (typeof m === 'string') return fail(m.replace('a linearizable read', 'LeaseTimeToLive'));
      const r = await m.rpc.leaseTimeToLive(id, a.form === 'lease-keys', ASSERT_TIMEOUT_MS);
      // etcd answers "not found" as TTL -1 with grantedTTL 0; a lease past its expiry but not yet revoked
      // can also read TTL -1 (Remaining() truncated) but keeps its grantedTTL, so that is what tells them apart.
      const found = r.grantedTtl > 0;
      if (a.form === 'lease-exists') return verdict(found === a.exists, found ? 'found' : 'TTL -1 (not found)');
      if (!found) return fail('TTL -1 (not found)');
      if (a.form === 'lease-keys') {
        const keys = [...r.keys].sort();
        const want = [...a.keys].sort();
        return verdict(keys.length === want.length && keys.every((k, i) => k === want[i]), `keys [${keys.join(', ')}]`);
      }
      return verdict(inRange(r.ttl, a.ttlSeconds), `TTL ${r.ttl}`);
    }
    case 'leader': {
      // Status shows who leads; whether its lessor is primary yet is not observable from outside.
      const l = await ctx.cluster.leader(ASSERT_TIMEOUT_MS);
      if (l === undefined) return fail('no leader');
      return verdict(l.name === a.member, `leader ${l.name}`);
    }
    case 'keepalive-alive': {
      const alive = ctx.keepAliveAlive(a.client, a.lease);
      if (alive === undefined) return fail(`client ${a.client} never started a keep-alive for ${a.lease}`);
      return verdict(alive === a.alive, alive ? 'channel open' : 'channel closed');
    }
    case 'answer': {
      // Real requests answer on the wall clock: one still in flight gets the read's timeout to arrive.
      const until = nowUs() + ASSERT_TIMEOUT_MS * 1000;
      while (ctx.namedAnswer(a.answer)?.answeredUs === undefined && nowUs() < until) await sleepMs(20);
      return answerVerdict(a, ctx.namedAnswer(a.answer), (l) => ctx.leaseId(l));
    }
    case 'leases-count': {
      const m = await target(ctx, a.via);
      if (typeof m === 'string') return fail(m.replace('a linearizable read', 'LeaseLeases'));
      const n = (await m.rpc.leaseLeases(ASSERT_TIMEOUT_MS)).length;
      return verdict(n === a.count, `${n} leases`);
    }
    default:
      // Refused before the run (refusals.ts); a form added later fails here rather than passing.
      return fail(`${a.form} is not observable on real etcd`);
  }
}
