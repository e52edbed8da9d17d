/** Extensions for locks: a client's concurrency.Mutex, and writes to a resource that checks fencing tokens. */
import { DEFAULT_SESSION_TTL, FencedResource, Mutex, Session, type LockResult } from '../../client/index.js';
import { isRpcError, type RpcError } from '../../cluster/server/api.js';
import { answerAs } from '../answer-form.js';
import { int, lockName, lockRef, member, resourceName, sessionRef } from '../codecs.js';
import type { ParseContext } from '../context.js';
import { opt, req, type Decoded } from '../fields.js';
import { quote } from '../node.js';
import type { StepReplay } from '../replay/step-replay.js';
import type { LockStep, SourcePos, TrylockStep } from '../types.js';
import type { StepKindEntries, StepFields } from './entry.js';
import { lockClient } from './shared-fields.js';

/** The fields `lock` and `trylock` share. */
const MUTEX_FIELDS = {
  name: req('name', lockName, 'Mutex prefix, e.g. /locks/payment.'),
  client: lockClient,
  sessionTtlSeconds: opt(
    'ttl',
    int(1, 9e15, 'a session TTL in whole seconds (a positive integer)'),
    'TTL of the session the step creates, in whole seconds; default 60, as concurrency.NewSession. ' +
      'Not with session (the session has its own).',
  ),
  session: opt('session', sessionRef, "An earlier session step's name: the mutex runs on that session."),
  via: opt('via', member, 'Member the client connects to when this step is its first use; default n1.'),
  as: answerAs,
};

type MutexFields = StepFields<'lock'>;
export const LOCK_STEPS: StepKindEntries<'lock' | 'trylock' | 'unlock' | 'fenced-write'> = {
  lock: {
    description:
      'Extension: the client takes a concurrency.Mutex on the name (blocking until it holds it), on a ' +
      'session of its own or on an earlier named one.',
    fields: MUTEX_FIELDS,
    check: (step, ctx) => checkMutex(step, ctx),
    describe: (s) => `${s.client} locks ${s.name} ${sessionText(s)}`,
    perform: (s, r) => withMutex(s, r, (m, done) => m.lock(done)),
  },
  trylock: {
    description:
      'Extension: Mutex.TryLock (clientv3 3.5): one attempt; when another session owns the lock it ' +
      'deletes its own key and fails with ErrLocked.',
    fields: MUTEX_FIELDS,
    check: (step, ctx) => checkMutex(step, ctx),
    describe: (s) => `${s.client} tries to lock ${s.name} ${sessionText(s)}`,
    perform: (s, r) => {
      if (!r.clientProfile.hasTryLock)
        return r.stepError(
          'trylock',
          `Mutex.TryLock does not exist in the ${r.clientProfile.name} client (added in 3.5)`,
        );
      withMutex(s, r, (m, done) => m.tryLock(done));
    },
  },
  unlock: {
    description:
      'Extension: the client releases the lock (Mutex.Unlock), and closes the session when the lock step made it.',
    fields: {
      name: req('name', lockRef, 'Mutex prefix of an earlier lock or trylock step.'),
      client: lockClient,
      session: opt('session', sessionRef, "Release the mutex of that name on this session (one of the client's)."),
      as: answerAs,
    },
    check: ({ value: v, posOf, pos }, ctx) => {
      if (!requestedLock(ctx, v.name, v.client, posOf.client ?? pos)) return false;
      const session = v.session === undefined ? undefined : ctx.sessions.get(v.session);
      if (session !== undefined && v.client !== undefined && session.client !== v.client) {
        ctx.error(posOf.client ?? pos, notSessionClient(v.session!, session, v.client));
        return false;
      }
      if (session === undefined || v.name === undefined || session.locks.has(v.name)) return true;
      ctx.error(
        posOf.session ?? pos,
        `no earlier lock or trylock step takes ${quote(v.name)} on session ${quote(v.session!)}`,
      );
      return false;
    },
    describe: (s) => `${s.client} unlocks ${s.name}${s.session === undefined ? '' : ` on session ${s.session}`}`,
    perform: (s, r) =>
      r.onClient(s.client, undefined, (sc) => {
        const m = s.session === undefined ? sc.locks.get(s.name) : r.sessions.mutex(s.session, s.name);
        if (m === undefined) return r.emit(s.client, 'client-error', { op: 'unlock', name: s.name, err: 'not-locked' });
        const named = r.answerTo(s.as, 'unlock');
        m.unlock((res) => {
          if (!isRpcError(res)) return named({ revision: res.header.revision });
          r.emit(s.client, 'client-error', { op: 'unlock', name: s.name, err: res.name });
          named({ error: res.name });
        });
        // A session of the lock step's own ends with the lock; a named one lives on (Unlock only deletes the key).
        if (!r.sessions.isNamed(m.session)) m.session.close();
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

/** `lock` and `trylock`: a named session belongs to the step's client, and brings its own TTL and connection. */
function checkMutex({ value: v, posOf, pos }: Decoded<MutexFields>, ctx: ParseContext): boolean {
  let ok = true;
  const session = v.session === undefined ? undefined : ctx.sessions.get(v.session);
  if (session !== undefined && v.name !== undefined) session.locks.add(v.name);
  if (session !== undefined) {
    const bad = (at: SourcePos | undefined, message: string): void => {
      ctx.error(at ?? pos, message);
      ok = false;
    };
    if (v.client !== undefined && v.client !== session.client)
      bad(posOf.client, notSessionClient(v.session!, session, v.client));
    if (posOf.sessionTtlSeconds !== undefined)
      bad(
        posOf.sessionTtlSeconds,
        `ttl does not apply with session: the session's TTL (${session.ttlSeconds} s, line ${session.pos.line}) does`,
      );
    if (posOf.via !== undefined)
      bad(
        posOf.via,
        `via does not apply with session: the session's client is already connected (line ${session.pos.line})`,
      );
  }
  if (v.name !== undefined && v.client !== undefined) {
    const holders = ctx.locks.get(v.name) ?? new Set<string>();
    ctx.locks.set(v.name, holders.add(v.client));
  }
  return ok;
}

function sessionText(s: LockStep | TrylockStep): string {
  if (s.session !== undefined) return `on session ${s.session}`;
  return `(session TTL ${s.sessionTtlSeconds ?? DEFAULT_SESSION_TTL} s)${s.via === undefined ? '' : ` via ${s.via}`}`;
}

/**
 * Makes the step's Mutex on the client (on its named session once that exists, else on a new session of
 * its own) and runs `act`; a failure is noted in the trace under the step's kind.
 */
function withMutex(
  s: LockStep | TrylockStep,
  r: StepReplay,
  act: (m: Mutex, done: (res: LockResult | RpcError) => void) => void,
): void {
  r.onClient(s.client, s.via, (sc) => {
    const named = r.answerTo(s.as, s.kind);
    const done = (res: LockResult | RpcError): void => {
      if (!isRpcError(res)) return named({ revision: res.header.revision });
      r.emit(s.client, 'client-error', { op: s.kind, name: s.name, err: res.name });
      named({ error: res.name });
    };
    const start = (session: Session): void => {
      const m = new Mutex(session, s.name, { profile: r.clientProfile, bugs: r.bugs });
      sc.locks.set(s.name, m);
      if (s.session !== undefined) r.sessions.addMutex(s.session, m);
      act(m, done);
    };
    if (s.session !== undefined) {
      if (!r.sessions.whenCreated(s.session, start)) r.stepError(s.kind, r.sessions.whyMissing(s.session));
      return;
    }
    const ttl = s.sessionTtlSeconds === undefined ? {} : { ttl: s.sessionTtlSeconds };
    Session.create(sc.client, ttl, (session) => {
      if (isRpcError(session)) {
        r.emit(s.client, 'client-error', { op: s.kind, err: session.name });
        return named({ error: session.name });
      }
      start(session);
    });
  });
}

function notSessionClient(name: string, session: { client: string; pos: SourcePos }, client: string): string {
  return `session ${quote(name)} belongs to client ${session.client} (line ${session.pos.line}), not ${client}`;
}
