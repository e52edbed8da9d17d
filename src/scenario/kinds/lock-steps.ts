/** Extensions for locks: a client's concurrency.Mutex, and writes to a resource that checks fencing tokens. */
import { FencedResource, Mutex, Session } from '../../client/index.js';
import { isRpcError } from '../../cluster/server/api.js';
import { int, lockName, lockRef, resourceName } from '../codecs.js';
import type { ParseContext } from '../context.js';
import { def, req } from '../fields.js';
import { quote } from '../node.js';
import type { SourcePos } from '../types.js';
import type { StepKindEntries } from './entry.js';
import { lockClient } from './shared-fields.js';

export const LOCK_STEPS: StepKindEntries<'lock' | 'unlock' | 'fenced-write'> = {
  lock: {
    description: 'Extension: the client takes a concurrency.Mutex on the name (blocking until it holds it).',
    fields: {
      name: req('name', lockName, 'Mutex prefix, e.g. /locks/payment.'),
      client: lockClient,
      sessionTtlSeconds: def(
        'ttl',
        int(1, 9e15, 'a session TTL in whole seconds (a positive integer)'),
        60,
        'Session lease TTL in whole seconds; default 60, as concurrency.NewSession.',
      ),
    },
    check: ({ value: v }, ctx) => {
      if (v.name !== undefined && v.client !== undefined) {
        const holders = ctx.locks.get(v.name) ?? new Set<string>();
        ctx.locks.set(v.name, holders.add(v.client));
      }
      return true;
    },
    describe: (s) => `${s.client} locks ${s.name} (session TTL ${s.sessionTtlSeconds} s)`,
    perform: (s, r) =>
      r.onClient(s.client, undefined, (sc) => {
        Session.create(sc.client, { ttl: s.sessionTtlSeconds }, (session) => {
          if (isRpcError(session)) return r.emit(s.client, 'client-error', { op: 'lock', err: session.name });
          const m = new Mutex(session, s.name, { profile: r.clientProfile, bugs: r.bugs });
          sc.locks.set(s.name, m);
          m.lock((res) => {
            if (isRpcError(res)) r.emit(s.client, 'client-error', { op: 'lock', name: s.name, err: res.name });
          });
        });
      }),
  },
  unlock: {
    description: 'Extension: the client releases the lock.',
    fields: { name: req('name', lockRef, 'Mutex prefix of an earlier lock step.'), client: lockClient },
    check: ({ value: v, posOf, pos }, ctx) => requestedLock(ctx, v.name, v.client, posOf.client ?? pos),
    describe: (s) => `${s.client} unlocks ${s.name}`,
    perform: (s, r) =>
      r.onClient(s.client, undefined, (sc) => {
        const m = sc.locks.get(s.name);
        if (m === undefined) return r.emit(s.client, 'client-error', { op: 'unlock', name: s.name, err: 'not-locked' });
        m.unlock((res) => {
          if (isRpcError(res)) r.emit(s.client, 'client-error', { op: 'unlock', name: s.name, err: res.name });
        });
        m.session.close();
      }),
  },
  'fenced-write': {
    description:
      'Extension: the client writes to the resource, presenting the fencing token (revision) it got from the lock.',
    fields: {
      client: lockClient,
      resource: req('resource', resourceName, 'Resource that checks fencing tokens.'),
      lock: req('lock', lockRef, 'Mutex prefix whose token the client presents.'),
    },
    check: ({ value: v, posOf, pos }, ctx) => {
      if (v.resource !== undefined) ctx.resources.add(v.resource);
      return requestedLock(ctx, v.lock, v.client, posOf.client ?? pos);
    },
    describe: (s) => `${s.client} writes to ${s.resource} with the fencing token of ${s.lock}`,
    perform: (s, r) =>
      r.onClient(s.client, undefined, (sc) => {
        const m = sc.locks.get(s.lock);
        if (m === undefined || m.myRevision <= 0)
          return r.emit(s.client, 'client-error', { op: 'fenced-write', lock: s.lock, err: 'no-fencing-token' });
        let res = r.resources.get(s.resource);
        if (res === undefined) {
          res = new FencedResource(s.resource, r.cluster.sched, { trace: r.trace });
          r.resources.set(s.resource, res);
        }
        res.write(s.client, m.myRevision);
      }),
  },
};

/** Unlocking or presenting a token needs an earlier `lock` step by the same client. */
function requestedLock(ctx: ParseContext, name: string | undefined, who: string | undefined, pos: SourcePos): boolean {
  if (name === undefined || who === undefined || ctx.locks.get(name)?.has(who)) return true;
  ctx.error(pos, `client ${who} takes lock ${quote(name)} in no earlier lock step`);
  return false;
}
