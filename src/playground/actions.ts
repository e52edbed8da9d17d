/** What the learner can do by clicking, as the scenario step that does the same thing. */
import type { Micros } from '../clock/time.js';
import { formatDuration } from '../scenario/duration.js';

export type Action =
  | { readonly kind: 'pause' | 'resume' | 'crash' | 'restart'; readonly member: string }
  | { readonly kind: 'transfer-leader'; readonly to: string }
  | { readonly kind: 'isolate'; readonly member: string; readonly members: readonly string[] }
  | { readonly kind: 'heal' }
  | { readonly kind: 'pause-client' | 'resume-client'; readonly client: string; readonly forUs?: Micros }
  | { readonly kind: 'grant'; readonly lease: string; readonly ttl: number }
  | { readonly kind: 'put'; readonly key: string; readonly value: string; readonly lease: string }
  | { readonly kind: 'keepalive' | 'keepalive-stop'; readonly lease: string; readonly client: string }
  | { readonly kind: 'revoke'; readonly lease: string };

/** The step as plain data for the YAML document: `{ at, <action>: { ... } }`. */
export function stepOf(a: Action, atUs: Micros): Record<string, unknown> {
  const at = formatDuration(atUs);
  switch (a.kind) {
    case 'pause':
    case 'resume':
    case 'crash':
    case 'restart':
      return { at, [a.kind]: { member: a.member } };
    case 'transfer-leader':
      return { at, 'transfer-leader': { to: a.to } };
    case 'isolate':
      return { at, partition: { groups: [[a.member], a.members.filter((m) => m !== a.member)] } };
    case 'heal':
      return { at, heal: {} };
    case 'pause-client':
      return {
        at,
        pause: a.forUs === undefined ? { client: a.client } : { client: a.client, for: formatDuration(a.forUs) },
      };
    case 'resume-client':
      return { at, resume: { client: a.client } };
    case 'grant':
      return { at, grant: { lease: a.lease, ttl: a.ttl } };
    case 'put':
      return { at, put: { key: a.key, value: a.value, lease: a.lease } };
    case 'keepalive':
    case 'keepalive-stop':
      return { at, [a.kind]: { lease: a.lease, client: a.client } };
    case 'revoke':
      return { at, revoke: { lease: a.lease } };
  }
}
