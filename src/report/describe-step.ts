import { formatDuration } from '../scenario/duration.js';
import type { Step } from '../scenario/types.js';

const via = (v: string | undefined): string => (v === undefined ? '' : ` via ${v}`);

/** A step in words, as the timeline shows it. */
export function describeStep(s: Step): string {
  switch (s.kind) {
    case 'grant':
      return `grant lease ${s.lease} with TTL ${s.ttlSeconds} s${s.id !== undefined ? ` (ID ${s.id})` : ''}${via(s.via)}`;
    case 'grant-many':
      return `grant ${s.count} leases ${s.prefix}1..${s.prefix}${s.count} with TTL ${s.ttlSeconds} s${s.spreadUs > 0 ? ` over ${formatDuration(s.spreadUs)}` : ''}${via(s.via)}`;
    case 'revoke':
      return `revoke lease ${s.lease}${via(s.via)}`;
    case 'put':
      return `put ${s.key}=${JSON.stringify(s.value)}${s.lease !== undefined ? ` with lease ${s.lease}` : ''}${via(s.via)}`;
    case 'delete':
      return `delete ${s.key}${via(s.via)}`;
    case 'keepalive':
      return `${s.client} starts keep-alive for ${s.lease}${via(s.via)}`;
    case 'keepalive-stop':
      return `${s.client} stops keep-alive for ${s.lease}`;
    case 'keepalive-once':
      return `keep-alive once for ${s.lease}${via(s.via)}`;
    case 'pause':
      return `pause ${s.member ?? s.client}${s.forUs !== undefined ? ` for ${formatDuration(s.forUs)}` : ''} (SIGSTOP)`;
    case 'resume':
      return `resume ${s.member ?? s.client} (SIGCONT)`;
    case 'crash':
      return `crash ${s.member}`;
    case 'stall':
      return `${s.member}'s ${s.loop} loop stalls${s.forUs !== undefined ? ` for ${formatDuration(s.forUs)}` : ''}`;
    case 'unstall':
      return `${s.member}'s ${s.loop} loop runs again`;
    case 'restart':
      return `restart ${s.member}`;
    case 'transfer-leader':
      return `move leadership to ${s.to}`;
    case 'partition':
      return `partition ${s.groups.map((g) => `{${g.join(',')}}`).join(' ')}`;
    case 'heal':
      return 'heal the network';
    case 'clock':
      return `${s.member}'s wall clock jumps ${s.jumpUs >= 0 ? '+' : '-'}${formatDuration(Math.abs(s.jumpUs))}`;
    case 'timetolive':
      return `TimeToLive ${s.lease}${s.keys ? ' --keys' : ''}${via(s.via)}`;
    case 'leases':
      return `list leases${via(s.via)}`;
    case 'lock':
      return `${s.client} locks ${s.name} (session TTL ${s.sessionTtlSeconds} s)`;
    case 'unlock':
      return `${s.client} unlocks ${s.name}`;
    case 'fenced-write':
      return `${s.client} writes to ${s.resource} with the fencing token of ${s.lock}`;
    case 'holder':
      return `holder ${s.name} (${s.strategy}) on ${s.client} takes ${s.key} with TTL ${s.ttlSeconds} s${s.marginUs > 0 ? `, margin ${formatDuration(s.marginUs)}` : ''}`;
    case 'expect':
      return 'expect';
  }
}
