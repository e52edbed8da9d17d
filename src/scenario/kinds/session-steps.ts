/** Extensions for concurrency sessions: a named Session that locks can share, and its Close and Orphan. */
import { Session } from '../../client/index.js';
import { isRpcError } from '../../cluster/server/api.js';
import { answerAs } from '../answer-form.js';
import { client, int, leaseRef, member, sessionName, sessionRef } from '../codecs.js';
import { def, opt, req } from '../fields.js';
import { quote } from '../node.js';
import type { StepReplay } from '../replay/step-replay.js';
import type { StepKindEntries } from './entry.js';

const sessionField = req('session', sessionRef, 'Name of an earlier session step.');

export const SESSION_STEPS: StepKindEntries<'session' | 'session-close' | 'session-orphan'> = {
  session: {
    description:
      'Extension: concurrency.NewSession on the client: grants a lease with the TTL (or takes an ' +
      'earlier one, WithLease) and keeps it alive until the session is closed, orphaned or lost.',
    fields: {
      name: req(
        'name',
        sessionName,
        'Name of the session for later steps; also the label of the lease it grants (without lease).',
      ),
      client: req('client', client, 'Client process the session runs on.'),
      ttlSeconds: def(
        'ttl',
        int(1, 9e15, 'a session TTL in whole seconds (a positive integer)'),
        60,
        'WithTTL in whole seconds; default 60, as concurrency.NewSession.',
      ),
      lease: opt('lease', leaseRef, 'WithLease: keep this earlier grant alive instead of granting a lease.'),
      via: opt('via', member, 'Member the client connects to when this step is its first use; default n1.'),
      as: answerAs,
    },
    check: ({ value: v, posOf, pos }, ctx) => {
      if (v.name === undefined) return true;
      const at = posOf.name ?? pos;
      const earlier = ctx.sessions.get(v.name);
      if (earlier !== undefined) {
        ctx.error(at, `session ${quote(v.name)} is already created at line ${earlier.pos.line}`);
        return false;
      }
      if (v.lease === undefined) {
        const clash = ctx.labels.define(v.name, at);
        if (clash !== undefined) {
          ctx.error(
            at,
            `session ${quote(v.name)} grants a lease labelled ${quote(v.name)}, ` +
              `but line ${clash.line} already uses that label`,
          );
          return false;
        }
      }
      if (v.client !== undefined)
        ctx.sessions.set(v.name, {
          client: v.client,
          ttlSeconds: v.ttlSeconds ?? 60,
          pos: at,
          locks: new Set(),
          campaigns: new Set(),
        });
      return true;
    },
    describe: (s) =>
      `${s.client} opens session ${s.name} ` +
      (s.lease === undefined ? `(TTL ${s.ttlSeconds} s)` : `on lease ${s.lease} (TTL ${s.ttlSeconds} s)`) +
      (s.via === undefined ? '' : ` via ${s.via}`),
    perform: (s, r) => {
      r.sessions.open(s.name, s.client);
      const create = (lease: bigint | undefined): void =>
        r.onClient(s.client, s.via, (sc) => {
          const named = r.answerTo(s.as, 'session');
          Session.create(sc.client, { ttl: s.ttlSeconds, ...(lease === undefined ? {} : { lease }) }, (res) => {
            if (isRpcError(res)) {
              named({ error: res.name });
              const why = `session ${s.name} could not be created: ${res.name}`;
              r.sessions.fail(s.name, why);
              if (s.lease === undefined) r.labels.fail(s.name, why);
              return r.emit(s.client, 'client-error', { op: 'session', name: s.name, err: res.name });
            }
            if (s.lease === undefined) r.labels.bind(s.name, res.lease);
            r.sessions.created(s.name, res);
            named({ id: res.lease });
          });
        });
      if (s.lease === undefined) create(undefined);
      else r.withLease(s.lease, 'session', create);
    },
  },
  'session-close': {
    description:
      'Extension: Session.Close: stop the keep-alive, then revoke the lease (deadline: the session TTL), ' +
      'which deletes every lock key of the session.',
    fields: { session: sessionField, as: answerAs },
    describe: (s) => `close session ${s.session} (revoke its lease)`,
    perform: (s, r) =>
      onSession(r, s.session, 'session-close', (session, who) => {
        const named = r.answerTo(s.as, 'session-close');
        session.close((res) => {
          if (!isRpcError(res)) return named({ revision: res.header.revision });
          r.emit(who, 'client-error', { op: 'session-close', name: s.session, err: res.name });
          named({ error: res.name });
        });
      }),
  },
  'session-orphan': {
    description: 'Extension: Session.Orphan: stop the keep-alive and leave the lease to expire (no revoke).',
    fields: { session: sessionField },
    describe: (s) => `orphan session ${s.session} (stop renewing it)`,
    perform: (s, r) => onSession(r, s.session, 'session-orphan', (session) => session.orphan()),
  },
};

/** Runs `fn` on the session's own client process, once the session exists. */
export function onSession(r: StepReplay, name: string, op: string, fn: (s: Session, client: string) => void): void {
  const who = r.sessions.clientOf(name);
  if (who === undefined) return r.stepError(op, r.sessions.whyMissing(name));
  r.onClient(who, undefined, () => {
    if (!r.sessions.whenCreated(name, (session) => fn(session, who))) r.stepError(op, r.sessions.whyMissing(name));
  });
}
