/** The lease and key requests of the format's fixed core: grant, revoke, put, delete and keep-alives. */
import { answerName, bool, client, int, leaseId, leaseLabel, leaseRef, ttl } from '../codecs.js';
import type { ParseContext } from '../context.js';
import { opt, req, type Decoded } from '../fields.js';
import { quote } from '../node.js';
import type { SourcePos } from '../types.js';
import type { StepFields, StepKindEntries } from './entry.js';
import { answerAs } from '../answer-form.js';
import { clientC1, key, lease, value, via, viaText } from './shared-fields.js';

const byClient = opt(
  'client',
  client,
  'Extension: sent by this scenario client (clientv3), after its earlier steps; default: etcdctl.',
);

type LeaseKind = 'grant' | 'revoke' | 'put' | 'delete' | 'keepalive' | 'keepalive-stop' | 'keepalive-once';

export const LEASE_STEPS: StepKindEntries<LeaseKind> = {
  grant: {
    description: 'LeaseGrant; the label names the lease in later steps.',
    fields: {
      lease: req('lease', leaseLabel, 'Label naming the new lease in later steps.'),
      ttlSeconds: req('ttl', ttl, 'Requested TTL in whole seconds (the server clamps it to its minimum TTL).'),
      id: opt('id', leaseId, 'Lease ID to ask for (int64, decimal or "0x" hex); default: the server picks one.'),
      idOf: opt(
        'id-of',
        leaseRef,
        "Extension: ask for the ID of an earlier label's lease (sent once that grant is answered); while " +
          'that lease exists the grant fails with ErrLeaseExist.',
      ),
      via,
      as: answerAs,
      client: byClient,
    },
    check: grantLabel,
    describe: (s) =>
      `grant lease ${s.lease} with TTL ${s.ttlSeconds} s${s.id !== undefined ? ` (ID ${s.id})` : ''}${
        s.idOf !== undefined ? ` (the ID of ${s.idOf})` : ''
      }${viaText(s.via)}`,
    perform: (s, r) => {
      if (s.idOf === undefined) return r.grant(s.lease, s.ttlSeconds, s.id ?? 0n, s.via, s.as, s.client);
      r.withLease(s.idOf, 'grant', (id) => r.grant(s.lease, s.ttlSeconds, id, s.via, s.as, s.client));
    },
  },
  revoke: {
    description: 'LeaseRevoke.',
    fields: { lease, via, as: answerAs, client: byClient },
    describe: (s) => `${s.client !== undefined ? `${s.client}: ` : ''}revoke lease ${s.lease}${viaText(s.via)}`,
    perform: (s, r) =>
      r.withLease(s.lease, 'revoke', (id) => {
        // The answer's clock starts when the request goes out: on a client's process, when it runs.
        if (s.client === undefined) return r.ctl(s.via).revoke(id, r.answer('revoke', id, undefined, s.as));
        r.onClient(s.client, s.via, (sc) => sc.client.revoke(id, r.answer('revoke', id, undefined, s.as)));
      }),
  },
  put: {
    description: 'Put, attaching the key to the lease when given.',
    fields: {
      key: req('key', key, 'Key to write.'),
      value: req('value', value, 'Value to write.'),
      lease: opt('lease', leaseRef, 'Label of an earlier-granted lease to attach the key to.'),
      leaseId: opt('lease-id', leaseId, 'Extension: a raw lease ID to attach the key to (e.g. one never granted).'),
      via,
      as: answerAs,
    },
    check: oneLease,
    describe: (s) =>
      `put ${s.key}=${JSON.stringify(s.value)}${s.lease !== undefined ? ` with lease ${s.lease}` : ''}${
        s.leaseId !== undefined ? ` with lease ID ${s.leaseId}` : ''
      }${viaText(s.via)}`,
    perform: (s, r) => {
      if (s.leaseId !== undefined)
        return r.ctl(s.via).put(s.key, s.value, { lease: s.leaseId }, r.answer('put', s.leaseId, s.key, s.as));
      if (s.lease === undefined) return r.ctl(s.via).put(s.key, s.value, {}, r.answer('put', undefined, s.key, s.as));
      return r.withLease(s.lease, 'put', (id) =>
        r.ctl(s.via).put(s.key, s.value, { lease: id }, r.answer('put', id, s.key, s.as)),
      );
    },
  },
  delete: {
    description: 'DeleteRange of one key.',
    fields: { key: req('key', key, 'Key to delete.'), via, as: answerAs },
    describe: (s) => `delete ${s.key}${viaText(s.via)}`,
    perform: (s, r) => r.ctl(s.via).delete(s.key, r.answer('delete', undefined, s.key, s.as)),
  },
  keepalive: {
    description:
      "A client starts etcd's KeepAlive stream for the lease (TTL/3 cadence) and keeps it until stopped or lost.",
    fields: {
      lease,
      client: clientC1,
      via,
      requireLeader: opt(
        'require-leader',
        bool,
        'Extension: the caller requires a leader (clientv3.WithRequireLeader): the channel closes when the ' +
          'stream ends with ErrNoLeader. Default false.',
      ),
      as: opt(
        'as',
        answerName,
        'Extension: names this KeepAlive call: its own channel (beside any other on the lease), for ' +
          'keepalive-cancel and expect { channel }, and its first response, for expect { answer }.',
      ),
      unreadBuffer: opt(
        'unread-buffer',
        int(0, 1_000_000, 'a buffer size (0 or more)'),
        'Extension: nobody reads the channel, which buffers this many responses (clientv3.LeaseResponseChSize, ' +
          'default 16); later ones are dropped, and renewals go on as before.',
      ),
    },
    describe: (s) =>
      `${s.client} starts keep-alive for ${s.lease}${s.requireLeader === true ? ' (require leader)' : ''}${
        s.as !== undefined ? ` as ${s.as}` : ''
      }${viaText(s.via)}`,
    perform: (s, r) =>
      r.withLease(s.lease, 'keepalive', (id) =>
        r.onClient(s.client, s.via, (sc) => {
          const ch = sc.client.keepAlive(id, s.requireLeader === true ? { requireLeader: true } : undefined);
          if (s.as !== undefined) return r.nameChannel(s.as, s.client, ch, s.unreadBuffer);
          sc.keepAlives.get(id)?.close();
          sc.keepAlives.set(id, ch);
        }),
      ),
  },
  'keepalive-stop': {
    description: 'The client cancels that keep-alive.',
    fields: { lease, client: clientC1 },
    describe: (s) => `${s.client} stops keep-alive for ${s.lease}`,
    perform: (s, r) =>
      r.withLease(s.lease, 'keepalive-stop', (id) =>
        r.onClient(s.client, undefined, (sc) => sc.keepAlives.get(id)?.close()),
      ),
  },
  'keepalive-once': {
    description: 'One renew request (KeepAliveOnce).',
    fields: {
      lease: opt('lease', leaseRef, 'Label of a lease granted by an earlier step (or give lease-id).'),
      leaseId: opt('lease-id', leaseId, 'Extension: a raw lease ID instead of a label (e.g. 0, never granted).'),
      via,
      as: answerAs,
    },
    check: labelOrId,
    describe: (s) => `keep-alive once for ${s.lease ?? `lease ID ${s.leaseId}`}${viaText(s.via)}`,
    // etcdctl's keep-alive-once runs with context.TODO(): no client deadline, only the server's answer.
    perform: (s, r) => {
      const once = (id: bigint) =>
        r.ctl(s.via).keepAliveOnce(id, r.answer('keepalive-once', id, undefined, s.as), { noDeadline: true });
      if (s.lease === undefined) return once(s.leaseId ?? 0n);
      r.withLease(s.lease, 'keepalive-once', once);
    },
  },
};

/** keepalive-once names its lease by label or by raw ID: exactly one. */
function labelOrId({ posOf, pos }: Decoded<StepFields<'keepalive-once'>>, ctx: ParseContext): boolean {
  if ((posOf.lease === undefined) !== (posOf.leaseId === undefined)) return true;
  ctx.error(posOf.leaseId ?? pos, 'keepalive-once needs "lease" (a label) or "lease-id" (a raw ID), exactly one');
  return false;
}

/** A put attaches to a label's lease or to a raw ID, not both. */
function oneLease({ posOf }: Decoded<StepFields<'put'>>, ctx: ParseContext): boolean {
  if (posOf.lease === undefined || posOf.leaseId === undefined) return true;
  ctx.error(posOf.leaseId, 'give "lease" (a label) or "lease-id" (a raw ID), not both');
  return false;
}

function grantLabel({ value: v, posOf, pos }: Decoded<StepFields<'grant'>>, ctx: ParseContext): boolean {
  if (posOf.id !== undefined && posOf.idOf !== undefined) {
    ctx.error(posOf.idOf, 'give "id" (a raw ID) or "id-of" (an earlier label\'s lease), not both');
    return false;
  }
  if (v.lease === undefined) return true;
  const at = posOf.lease ?? pos;
  return noClash(ctx, v.lease, at, ctx.labels.define(v.lease, at));
}

/** A grant's label must not name a lease an earlier grant named. */
export function noClash(ctx: ParseContext, label: string, pos: SourcePos, clash: SourcePos | undefined): boolean {
  if (clash === undefined) return true;
  ctx.error(
    pos,
    `lease label ${quote(label)} clashes with the grant at line ${clash.line}; each label names one lease`,
  );
  return false;
}
