import { etcdErrorName } from '../answer-errors.js';
import type { AnswerAssertion, Assertion, IntRange } from '../types.js';
import { formatDuration } from '../duration.js';
import { describeRange } from './assertions.js';
import { describeSignalAssertion } from './signal-verdicts.js';

const on = (via: string | undefined, linearizable: string): string => (via === undefined ? linearizable : `on ${via}`);

/** An assertion in words, for PASS/FAIL lines: "key /locks/a exists (linearizable read)". */
export function describeAssertion(a: Assertion): string {
  switch (a.form) {
    case 'key-exists':
      return `key ${a.key} ${a.exists ? 'exists' : 'does not exist'} ${on(a.via, '(linearizable read)')}`;
    case 'key-value':
      return `key ${a.key} = ${JSON.stringify(a.value)} ${on(a.via, '(linearizable read)')}`;
    case 'key-revision':
      return `key ${a.key} mod revision ${describeRange(a.revision)} ${on(a.via, '(linearizable read)')}`;
    case 'key-create-revision':
      return `key ${a.key} create revision ${exactOrRange(a.createRevision)} ${on(a.via, '(linearizable read)')}`;
    case 'key-version':
      return `key ${a.key} version ${exactOrRange(a.version)} ${on(a.via, '(linearizable read)')}`;
    case 'keepalive-channel': {
      const parts = [
        ...(a.error !== undefined
          ? [`closed by ${etcdErrorName(a.error)}`]
          : a.alive !== undefined
            ? [`is ${a.alive ? 'open' : 'closed'}`]
            : []),
        ...(a.responses !== undefined ? [`holds ${exactOrRange(a.responses)} responses`] : []),
      ];
      return `keep-alive ${a.channel}'s channel ${parts.join(', ')}`;
    }
    case 'lease-exists':
      return `lease ${a.lease} ${a.exists ? 'exists' : 'is gone (TimeToLive answers -1)'}`;
    case 'lease-ttl':
      return `lease ${a.lease} TimeToLive TTL ${describeRange(a.ttlSeconds)} s`;
    case 'lease-keys':
      return `lease ${a.lease} has keys [${a.keys.join(', ')}]`;
    case 'leader':
      return `${a.member} is leader with a primary lessor`;
    case 'keepalive-alive':
      return `${a.client}'s keep-alive for ${a.lease} is ${a.alive ? 'open' : 'closed'}`;
    case 'lock-held':
      return `${a.client} ${a.held ? 'holds' : 'does not hold'} lock ${a.lock}`;
    case 'session-lock-held':
      return `session ${a.session} ${a.held ? 'holds' : 'does not hold'} lock ${a.lock}`;
    case 'election-leader':
      return `the leader of ${a.election} is ${JSON.stringify(a.leaderValue)} (linearizable read)`;
    case 'election-observed':
      return `session ${a.session} observed ${a.election} as [${a.observed.map((v) => JSON.stringify(v)).join(', ')}]`;
    case 'lock-contenders':
      return `${a.contenders} keys under ${a.lock}/ (linearizable read)`;
    case 'session-done':
      return `session ${a.session} ${a.done ? 'is done' : 'is still kept alive'}`;
    case 'resource-accepted':
      return `resource ${a.resource} accepted ${a.accepted} writes`;
    case 'resource-rejected':
      return `resource ${a.resource} rejected ${a.rejected} writes`;
    case 'revision':
      return `revision ${describeRange(a.revision)} ${on(a.via, 'on the leader')}`;
    case 'expiry-queue':
      return `${a.member}'s expiry queue holds ${describeRange(a.entries)} entries`;
    case 'leases-count':
      return `${a.count} leases listed ${on(a.via, 'on the leader')}`;
    case 'answer':
      return describeAnswerAssertion(a);
    case 'alert-firing':
    case 'alert-lead':
    case 'metric-value':
      return describeSignalAssertion(a, formatDuration);
    case 'holder-acting':
      return `holder ${a.holder} ${a.acting ? 'believes' : 'does not believe'} it holds its lock`;
    case 'holder-after-loss':
      return (
        `holder ${a.holder} believed it held its lock for ` +
        `${durationRange(a.afterLossUs)} after its lease was revoked`
      );
    case 'holder-stale-accepted':
      return `the resource accepted ${a.staleAccepted} of holder ${a.holder}'s stale writes`;
    case 'holders-overlap':
      return `holders believed at once that they held the lock for ${durationRange(a.overlapUs)}`;
  }
}

/** "answer G1 is ErrLeaseNotFound within 1s", "answer T1 has TTL in [8, 9], ID of L1". */
/** `9` for an exact range, else `in [8, 9]`. */
const exactOrRange = (r: IntRange): string => (r.min !== undefined && r.min === r.max ? `${r.min}` : describeRange(r));

function describeAnswerAssertion(a: AnswerAssertion): string {
  const exact = exactOrRange;
  const parts = [
    a.error !== undefined ? `is ${etcdErrorName(a.error)}` : 'succeeded',
    ...(a.ttlSeconds !== undefined ? [`TTL ${exact(a.ttlSeconds)}`] : []),
    ...(a.grantedTtlSeconds !== undefined ? [`GrantedTTL ${exact(a.grantedTtlSeconds)}`] : []),
    ...(a.id !== undefined ? [`ID 0x${BigInt.asUintN(64, a.id).toString(16)}`] : []),
    ...(a.lease !== undefined ? [`ID of ${a.lease}`] : []),
    ...(a.leases !== undefined ? [`leases [${a.leases.join(', ')}]`] : []),
    ...(a.keys !== undefined ? [`keys [${a.keys.join(', ')}]`] : []),
    ...(a.revision !== undefined ? [`revision ${exact(a.revision)}`] : []),
    ...(a.withinUs !== undefined ? [`within ${formatDuration(a.withinUs)}`] : []),
    ...(a.tookUs !== undefined ? [`took ${durationRange(a.tookUs)}`] : []),
  ];
  return `answer ${a.answer} ${parts.join(', ')}`;
}

function durationRange(r: IntRange): string {
  if (r.min !== undefined && r.max !== undefined) return `${formatDuration(r.min)} to ${formatDuration(r.max)}`;
  return r.min !== undefined ? `at least ${formatDuration(r.min)}` : `at most ${formatDuration(r.max!)}`;
}
