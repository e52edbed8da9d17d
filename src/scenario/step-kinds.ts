/**
 * The step table: one entry per action, naming its fields (key, type, presence, default, description).
 * Adding a kind is a model type in types.ts plus one entry here; the compiler checks the two agree, and
 * the parser and the JSON Schema both read this table. `expect` is the exception: its fields are an
 * assertion form, tabled in assertion-forms.ts.
 */
import type { ParseContext } from './context.js';
import {
  bool,
  client,
  duration,
  groups,
  holderName,
  holderStrategy,
  int,
  leaseId,
  leaseLabel,
  leaseRef,
  lockName,
  lockRef,
  member,
  oneOf,
  resourceName,
  text,
  ttl,
} from './codecs.js';
import { def, opt, req, type Decoded, type FieldsFor } from './fields.js';
import { quote } from './node.js';
import { HOLDER_STRATEGY_NAMES } from '../holder/index.js';
import { MICROS_PER_SECOND } from '../clock/time.js';
import type { SourcePos, Step, StepKind } from './types.js';

export interface KindSpec<T> {
  readonly description: string;
  readonly fields: FieldsFor<T>;
  /**
   * Cross-field rules, and the names the step introduces for later steps. Runs in file order even when a
   * field is bad (values are partial then), so one mistake does not cascade; reports its own errors.
   */
  readonly check?: (step: Decoded<T>, ctx: ParseContext) => boolean;
}

export type StepFields<K extends StepKind> = Omit<Extract<Step, { kind: K }>, 'kind' | 'atUs' | 'pos'>;
export type FieldKind = Exclude<StepKind, 'expect'>;

export const key = text('a key', { anyScalar: true });
export const via = opt('via', member, 'Member that receives the client request; default: the current leader.');
const value = text('a value', { anyScalar: true, allowEmpty: true });
const lease = req('lease', leaseRef, 'Label of a lease granted by an earlier step.');
const clientC1 = def('client', client, 'c1', 'Client process; default c1.');
const lockClient = req('client', client, 'Client process holding the lock session.');
const MAX_GRANT_MANY = 1_000_000;

export const STEP_KINDS: { readonly [K in FieldKind]: KindSpec<StepFields<K>> } = {
  grant: {
    description: 'LeaseGrant; the label names the lease in later steps.',
    fields: {
      lease: req('lease', leaseLabel, 'Label naming the new lease in later steps.'),
      ttlSeconds: req('ttl', ttl, 'Requested TTL in whole seconds (the server clamps it to its minimum TTL).'),
      id: opt('id', leaseId, 'Lease ID to ask for (int64, decimal or "0x" hex); default: the server picks one.'),
      via,
    },
    check: grantLabel,
  },
  revoke: { description: 'LeaseRevoke.', fields: { lease, via } },
  put: {
    description: 'Put, attaching the key to the lease when given.',
    fields: {
      key: req('key', key, 'Key to write.'),
      value: req('value', value, 'Value to write.'),
      lease: opt('lease', leaseRef, 'Label of an earlier-granted lease to attach the key to.'),
      via,
    },
  },
  delete: { description: 'DeleteRange of one key.', fields: { key: req('key', key, 'Key to delete.'), via } },
  keepalive: {
    description: "A client starts etcd's KeepAlive stream for the lease (TTL/3 cadence) and keeps it until stopped or lost.",
    fields: { lease, client: clientC1, via },
  },
  'keepalive-stop': { description: 'The client cancels that keep-alive.', fields: { lease, client: clientC1 } },
  'keepalive-once': { description: 'One renew request (KeepAliveOnce).', fields: { lease, via } },
  pause: {
    description: 'SIGSTOP: the process stops doing anything; resumes after `for` when given. Give member or client.',
    fields: {
      member: opt('member', member, 'Member to stop.'),
      client: opt('client', client, 'Client to stop.'),
      forUs: opt('for', duration({ positive: true }), 'Resume after this long.'),
    },
    check: oneTarget('pause'),
  },
  resume: {
    description: 'SIGCONT. Give member or client.',
    fields: { member: opt('member', member, 'Member to resume.'), client: opt('client', client, 'Client to resume.') },
    check: oneTarget('resume'),
  },
  stall: {
    description:
      "Extension: one loop of the member hangs while the rest of it keeps serving: `raft` (a leader stuck in fsync: no ticks, no messages, proposals queue up; etcd-io/etcd#15247) or `apply` (committed entries wait to be applied). Ends after `for`, or at `unstall`.",
    fields: {
      member: req('member', member, 'Member whose loop hangs.'),
      loop: def('loop', oneOf(['raft', 'apply'] as const), 'raft', 'Which loop hangs: raft or apply.'),
      forUs: opt('for', duration({ positive: true }), 'Unstall after this long.'),
    },
  },
  unstall: {
    description: 'Extension: the stalled loop of the member runs again; what it held runs now, in order.',
    fields: {
      member: req('member', member, 'Member whose loop resumes.'),
      loop: def('loop', oneOf(['raft', 'apply'] as const), 'raft', 'Which loop: raft or apply.'),
    },
  },
  crash: {
    description: 'The member stops; volatile state is lost.',
    fields: { member: req('member', member, 'Member that crashes.') },
  },
  restart: {
    description: 'A crashed member starts again from what it persisted.',
    fields: { member: req('member', member, 'Member to restart.') },
  },
  'transfer-leader': { description: 'etcdctl move-leader.', fields: { to: req('to', member, 'Member to become leader.') } },
  partition: {
    description: 'Members talk only inside their group; clients reach every member.',
    fields: { groups: req('groups', groups, 'Lists of member names; every member in exactly one list.') },
  },
  heal: { description: 'Removes every partition.', fields: {} },
  clock: {
    description: "The member's wall clock jumps; its monotonic clock does not.",
    fields: {
      member: req('member', member, 'Member whose wall clock jumps.'),
      jumpUs: req('jump', duration({ signed: true }), 'Signed jump, e.g. 30s or -30s.'),
    },
  },
  'grant-many': {
    description: 'Extension: grants `count` leases labelled prefix1..prefixN, spaced evenly over `spread`.',
    fields: {
      prefix: req('prefix', leaseLabel, 'Label prefix; the leases are labelled prefix1..prefixN.'),
      count: req('count', int(1, MAX_GRANT_MANY, `a lease count from 1 to ${MAX_GRANT_MANY}`), 'Number of leases.'),
      ttlSeconds: req('ttl', ttl, 'Requested TTL of each lease in whole seconds.'),
      via,
      spreadUs: def('spread', duration(), 0, 'Span over which the grants are spaced evenly; default 0 (all at once).'),
    },
    check: grantLabels,
  },
  timetolive: {
    description: 'Extension: records a LeaseTimeToLive reading in the output (no assertion).',
    fields: { lease, via, keys: def('keys', bool, false, 'Also list the keys attached to the lease.') },
  },
  leases: { description: 'Extension: records a LeaseLeases listing in the output.', fields: { via } },
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
  },
  unlock: {
    description: 'Extension: the client releases the lock.',
    fields: { name: req('name', lockRef, 'Mutex prefix of an earlier lock step.'), client: lockClient },
    check: ({ value: v, posOf, pos }, ctx) => requestedLock(ctx, v.name, v.client, posOf.client ?? pos),
  },
  'fenced-write': {
    description: 'Extension: the client writes to the resource, presenting the fencing token (revision) it got from the lock.',
    fields: {
      client: lockClient,
      resource: req('resource', resourceName, 'Resource that checks fencing tokens.'),
      lock: req('lock', lockRef, 'Mutex prefix whose token the client presents.'),
    },
    check: ({ value: v, posOf, pos }, ctx) => {
      if (v.resource !== undefined) ctx.resources.add(v.resource);
      return requestedLock(ctx, v.lock, v.client, posOf.client ?? pos);
    },
  },
  holder: {
    description:
      'Extension: an application process that takes the lock key with a lease (grant, then put-if-absent), writes to a fenced resource with its token while it believes it holds the lock, and re-acquires after a loss. See docs/holders.md.',
    fields: {
      name: req('name', holderName, 'Holder name, unique in the file; its trace events carry it.'),
      strategy: req('strategy', holderStrategy(HOLDER_STRATEGY_NAMES), `How it keeps the lease and notices its loss: ${HOLDER_STRATEGY_NAMES.join(', ')}, or user:<name>.`),
      key: req('key', key, 'The lock key; holders naming the same key compete for it.'),
      ttlSeconds: req('ttl', int(1, 9e15, 'a lease TTL in whole seconds (a positive integer)'), 'TTL of each lease it grants, in whole seconds.'),
      client: req('client', client, "Client process it runs on (pausing the client pauses the holder); one holder per client."),
      writesPerSecond: def('writes-per-second', int(0, 1000, 'writes per second, from 0 to 1000'), 2, 'Fenced writes per second while it believes it holds the lock; default 2.'),
      marginUs: def('margin', duration(), 0, 'How long before its computed deadline a deadline holder stops; must be below the TTL; default 0.'),
      intervalUs: opt('interval', duration({ positive: true }), "runbook-python's refresh interval; default TTL/3."),
      resource: def('resource', resourceName, 'resource', 'Fenced resource it writes to; default "resource".'),
      via: opt('via', member, "Member the holder's client is pinned to when it first connects (it fails over to the others in order); default n1."),
      fence: def('fence', oneOf(['lower', 'strict'] as const), 'lower', 'lower: reject tokens below the highest accepted; strict: the runbook SQL `fencing_revision < $1`, which rejects equal ones too.'),
    },
    check: holderCheck,
  },
};

function holderCheck({ value: v, posOf, pos }: Decoded<StepFields<'holder'>>, ctx: ParseContext): boolean {
  let ok = true;
  if (v.marginUs !== undefined && v.ttlSeconds !== undefined && v.marginUs >= v.ttlSeconds * MICROS_PER_SECOND) {
    ctx.error(posOf.marginUs ?? pos, `margin must be below the TTL (${v.ttlSeconds} s): a holder with that margin would never act`);
    ok = false;
  }
  if (v.name !== undefined) {
    if (ctx.holders.has(v.name)) {
      ctx.error(posOf.name ?? pos, `holder ${quote(v.name)} is already started by an earlier holder step`);
      ok = false;
    } else ctx.holders.set(v.name, v.key ?? '');
  }
  if (v.resource !== undefined) ctx.resources.add(v.resource);
  return ok;
}

function grantLabel({ value: v, posOf, pos }: Decoded<StepFields<'grant'>>, ctx: ParseContext): boolean {
  if (v.lease === undefined) return true;
  const at = posOf.lease ?? pos;
  return noClash(ctx, v.lease, at, ctx.labels.define(v.lease, at));
}

function grantLabels({ value: v, posOf, pos }: Decoded<StepFields<'grant-many'>>, ctx: ParseContext): boolean {
  if (v.prefix === undefined) return true;
  const at = posOf.prefix ?? pos;
  // A bad count still registers the prefix (for the largest count) so later uses do not cascade.
  return noClash(ctx, `${v.prefix}1..${v.prefix}N`, at, ctx.labels.defineRange(v.prefix, v.count ?? MAX_GRANT_MANY, at));
}

function noClash(ctx: ParseContext, label: string, pos: SourcePos, clash: SourcePos | undefined): boolean {
  if (clash === undefined) return true;
  ctx.error(pos, `lease label ${quote(label)} clashes with the grant at line ${clash.line}; each label names one lease`);
  return false;
}

/** Exactly one of member and client was written (judged by what was written, so a bad name is not "missing"). */
function oneTarget(kind: string) {
  return ({ posOf, pos }: Decoded<{ member?: string; client?: string }>, ctx: ParseContext): boolean => {
    if ((posOf.member === undefined) !== (posOf.client === undefined)) return true;
    ctx.error(pos, posOf.member === undefined ? `${kind} step needs "member" or "client"` : `${kind} step has both "member" and "client"; give one`);
    return false;
  };
}

/** Unlocking or presenting a token needs an earlier `lock` step by the same client. */
function requestedLock(ctx: ParseContext, name: string | undefined, who: string | undefined, pos: SourcePos): boolean {
  if (name === undefined || who === undefined || ctx.locks.get(name)?.has(who)) return true;
  ctx.error(pos, `client ${who} takes lock ${quote(name)} in no earlier lock step`);
  return false;
}
