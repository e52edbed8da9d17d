/**
 * `expect: { answer: NAME, … }` judged on a recorded answer; shared by the simulation and the real-etcd
 * replay, which record answers the same way (answers.ts). Every field given must hold; without `error`
 * the request must have succeeded, so a failure is never read as a pass.
 */
import { formatLeaseId as hex } from '../../trace/trace.js';
import { etcdErrorName } from '../answer-errors.js';
import { formatDuration } from '../duration.js';
import type { AnswerAssertion, IntRange } from '../types.js';
import type { Answer } from './answers.js';
import type { AssertionVerdict } from './assertions.js';
import { txnMismatch } from './txn-verdict.js';

const formatLeaseId = (id: bigint): string => `0x${hex(id)}`;
const inRange = (v: number, r: IntRange): boolean =>
  (r.min === undefined || v >= r.min) && (r.max === undefined || v <= r.max);

/** An answer in words: "ErrLeaseNotFound after 2ms", "TTL 9, ID 0x… after 3ms". */
export function describeAnswer(a: Answer): string {
  if (a.answeredUs === undefined) return `no answer yet (sent at ${formatDuration(a.sentUs)})`;
  const parts = [
    ...(a.error !== undefined ? [etcdErrorName(a.error)] : []),
    ...(a.ttl !== undefined ? [`TTL ${a.ttl}`] : []),
    ...(a.grantedTTL !== undefined ? [`GrantedTTL ${a.grantedTTL}`] : []),
    ...(a.id !== undefined ? [`ID ${formatLeaseId(a.id)}`] : []),
    ...(a.leases !== undefined ? [`leases [${a.leases.map(formatLeaseId).join(', ')}]`] : []),
    ...(a.keys !== undefined ? [`keys [${a.keys.join(', ')}]`] : []),
    ...(a.revision !== undefined && a.error === undefined ? [`revision ${a.revision}`] : []),
    ...(a.succeeded !== undefined ? [a.succeeded ? 'succeeded' : 'compares failed'] : []),
    ...(a.responses !== undefined ? [`${a.responses.length} op answers`] : []),
  ];
  return `${parts.length > 0 ? parts.join(', ') : 'ok'} after ${formatDuration(a.answeredUs - a.sentUs)}`;
}

/**
 * The verdict; `idOf` gives a label's lease ID or why there is none. A field the answer does not carry
 * fails (the parser refuses most such fields; this is for answers that lack one anyway).
 */
export function answerVerdict(
  x: AnswerAssertion,
  a: Answer | undefined,
  idOf: (label: string) => bigint | string,
): AssertionVerdict {
  if (a === undefined) return { pass: false, got: `${x.answer} was never sent (its step could not run)` };
  const got = describeAnswer(a);
  const fail = (why: string): AssertionVerdict => ({ pass: false, got: `${got}; ${why}` });
  if (a.answeredUs === undefined) return { pass: false, got };
  const took = a.answeredUs - a.sentUs;
  if (x.error !== a.error)
    return fail(x.error === undefined ? 'expected success' : `expected ${etcdErrorName(x.error)}`);
  const checks: Array<[boolean, string]> = [
    [x.withinUs === undefined || took <= x.withinUs, `expected within ${formatDuration(x.withinUs ?? 0)}`],
    [x.tookUs === undefined || inRange(took, x.tookUs), 'took outside the bounds'],
    [x.ttlSeconds === undefined || (a.ttl !== undefined && inRange(a.ttl, x.ttlSeconds)), 'TTL differs'],
    [
      x.grantedTtlSeconds === undefined || (a.grantedTTL !== undefined && inRange(a.grantedTTL, x.grantedTtlSeconds)),
      'GrantedTTL differs',
    ],
    [x.revision === undefined || (a.revision !== undefined && inRange(a.revision, x.revision)), 'revision differs'],
    [x.id === undefined || a.id === x.id, 'ID differs'],
  ];
  for (const [ok, why] of checks) if (!ok) return fail(why);
  if (x.lease !== undefined) {
    const want = idOf(x.lease);
    if (typeof want === 'string') return fail(want);
    if (a.id !== want) return fail(`expected ${x.lease}'s ID ${formatLeaseId(want)}`);
  }
  if (x.leases !== undefined) {
    const want: bigint[] = [];
    for (const l of x.leases) {
      const id = idOf(l);
      if (typeof id === 'string') return fail(id);
      want.push(id);
    }
    const listed = a.leases ?? [];
    if (listed.length !== want.length || listed.some((id, i) => id !== want[i]))
      return fail(`expected [${x.leases.join(', ')}] = [${want.map(formatLeaseId).join(', ')}]`);
  }
  if (x.succeeded !== undefined && a.succeeded !== x.succeeded)
    return fail(`expected the txn ${x.succeeded ? 'to succeed' : 'to fail its compares'}`);
  if (x.responses !== undefined) {
    const why = txnMismatch(x.responses, a.responses ?? [], idOf);
    if (why !== undefined) return fail(why);
  }
  if (x.keys !== undefined) {
    const have = [...(a.keys ?? [])].sort();
    const want = [...x.keys].sort();
    if (have.length !== want.length || have.some((k, i) => k !== want[i]))
      return fail(`expected keys [${want.join(', ')}]`);
  }
  return { pass: true, got };
}
