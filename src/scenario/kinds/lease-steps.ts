/** The lease and key requests of the format's fixed core: grant, revoke, put, delete and keep-alives. */
import { leaseId, leaseLabel, leaseRef, ttl } from '../codecs.js';
import type { ParseContext } from '../context.js';
import { opt, req, type Decoded } from '../fields.js';
import { quote } from '../node.js';
import type { SourcePos } from '../types.js';
import type { StepFields, StepKindEntries } from './entry.js';
import { answerAs } from '../answer-form.js';
import { clientC1, key, lease, value, via, viaText } from './shared-fields.js';

type LeaseKind = 'grant' | 'revoke' | 'put' | 'delete' | 'keepalive' | 'keepalive-stop' | 'keepalive-once';

export const LEASE_STEPS: StepKindEntries<LeaseKind> = {
  grant: {
    description: 'LeaseGrant; the label names the lease in later steps.',
    fields: {
      lease: req('lease', leaseLabel, 'Label naming the new lease in later steps.'),
      ttlSeconds: req('ttl', ttl, 'Requested TTL in whole seconds (the server clamps it to its minimum TTL).'),
      id: opt('id', leaseId, 'Lease ID to ask for (int64, decimal or "0x" hex); default: the server picks one.'),
      via,
      as: answerAs,
    },
    check: grantLabel,
    describe: (s) =>
      `grant lease ${s.lease} with TTL ${s.ttlSeconds} s${s.id !== undefined ? ` (ID ${s.id})` : ''}${viaText(s.via)}`,
    perform: (s, r) => r.grant(s.lease, s.ttlSeconds, s.id ?? 0n, s.via, s.as),
  },
  revoke: {
    description: 'LeaseRevoke.',
    fields: { lease, via, as: answerAs },
    describe: (s) => `revoke lease ${s.lease}${viaText(s.via)}`,
    perform: (s, r) =>
      r.withLease(s.lease, 'revoke', (id) => r.ctl(s.via).revoke(id, r.answer('revoke', id, undefined, s.as))),
  },
  put: {
    description: 'Put, attaching the key to the lease when given.',
    fields: {
      key: req('key', key, 'Key to write.'),
      value: req('value', value, 'Value to write.'),
      lease: opt('lease', leaseRef, 'Label of an earlier-granted lease to attach the key to.'),
      via,
      as: answerAs,
    },
    describe: (s) =>
      `put ${s.key}=${JSON.stringify(s.value)}${
        s.lease !== undefined ? ` with lease ${s.lease}` : ''
      }${viaText(s.via)}`,
    perform: (s, r) => {
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
    fields: { lease, client: clientC1, via },
    describe: (s) => `${s.client} starts keep-alive for ${s.lease}${viaText(s.via)}`,
    perform: (s, r) =>
      r.withLease(s.lease, 'keepalive', (id) =>
        r.onClient(s.client, s.via, (sc) => {
          sc.keepAlives.get(id)?.close();
          sc.keepAlives.set(id, sc.client.keepAlive(id));
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
    fields: { lease, via, as: answerAs },
    describe: (s) => `keep-alive once for ${s.lease}${viaText(s.via)}`,
    // etcdctl's keep-alive-once runs with context.TODO(): no client deadline, only the server's answer.
    perform: (s, r) =>
      r.withLease(s.lease, 'keepalive-once', (id) =>
        r.ctl(s.via).keepAliveOnce(id, r.answer('keepalive-once', id, undefined, s.as), { noDeadline: true }),
      ),
  },
};

function grantLabel({ value: v, posOf, pos }: Decoded<StepFields<'grant'>>, ctx: ParseContext): boolean {
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
