/**
 * The assertion table for `expect`: one entry per form. A form is recognised by its required keys, so an
 * `expect` map must match exactly one form; the table is kept unambiguous (a test checks it).
 */
import { INVALID, type Invalid, type JsonSchema } from './codec.js';
import {
  answerRef,
  bool,
  client,
  exactOrRange,
  duration,
  holderRef,
  int,
  leaseRef,
  list,
  lockRef,
  mapped,
  member,
  object,
  range,
  resourceRef,
  electionRef,
  sessionRef,
  text,
  ttl,
} from './codecs.js';
import type { ParseContext } from './context.js';
import {
  complete,
  decodeFields,
  def,
  fieldList,
  opt,
  fieldSchema,
  objectSchema,
  req,
  type Decoded,
  type FieldMap,
  type FieldsFor,
} from './fields.js';
import { ANSWER_FIELDS, checkAnswer, checkChannel, errorName } from './answer-form.js';
import { quote } from './node.js';
import { key, via } from './kinds/shared-fields.js';
import { didYouMean } from './suggest.js';
import { SIGNAL_FORMS } from './signal-forms.js';
import type { Assertion, AssertionForm } from './types.js';

export interface FormSpec<T> {
  readonly description: string;
  readonly fields: FieldsFor<T>;
  /** Cross-field rules; reports its own errors and returns whether the form decoded. */
  readonly check?: (d: Decoded<T>, ctx: ParseContext) => boolean;
}

export type FormFields<F extends AssertionForm> = Omit<Extract<Assertion, { form: F }>, 'form' | 'pos'>;

const MAX = Number.MAX_SAFE_INTEGER;
const keyField = req('key', key, 'Key to read.');
const lease = req('lease', leaseRef, 'Label of a lease granted by an earlier step.');
const holder = req('holder', holderRef, 'Name of a holder started by an earlier holder step.');
const revisionRange = req(
  'revision',
  range(int(0, MAX, 'a revision (0 or more)'), 'revision bounds'),
  'Bounds: { min, max }, either optional.',
);
const leaseCount = mapped(
  object<{ count: number }>(
    { count: req('count', int(0, MAX, 'a lease count (0 or more)'), 'Number of leases listed.') },
    'leases assertion',
  ),
  (v) => v.count,
);

export const ASSERTION_FORMS: { readonly [F in AssertionForm]: FormSpec<FormFields<F>> } = {
  'key-exists': {
    description:
      'A linearizable read of the key on the leader (with via: ' +
      'a serializable read on that member) finds it / does not.',
    fields: { key: keyField, exists: req('exists', bool, 'Whether the read finds the key.'), via },
  },
  'key-value': {
    description: 'The read finds the key with this value.',
    fields: {
      key: keyField,
      value: req('value', text('a value', { anyScalar: true, allowEmpty: true }), 'Expected value.'),
      via,
    },
  },
  'key-revision': {
    description: "Extension: the key's mod revision is within bounds.",
    fields: { key: keyField, revision: revisionRange, via },
  },
  'key-create-revision': {
    description: "Extension: the key's create revision is within bounds (exact: { min: N, max: N }, or N).",
    fields: {
      key: keyField,
      createRevision: req(
        'create-revision',
        exactOrRange(int(0, MAX, 'a revision (0 or more)'), 'revision bounds'),
        'The revision that created the key: exact, or { min, max }.',
      ),
      via,
    },
  },
  'key-version': {
    description: "Extension: the key's version (1 when created, +1 on every put since) is within bounds.",
    fields: {
      key: keyField,
      version: req(
        'version',
        exactOrRange(int(0, MAX, 'a version (0 or more)'), 'version bounds'),
        'The version: exact, or { min, max }.',
      ),
      via,
    },
  },
  'lease-exists': {
    description: 'LeaseTimeToLive finds the lease / answers TTL -1.',
    fields: { lease, exists: req('exists', bool, 'Whether the lease exists.'), via },
  },
  'lease-ttl': {
    description: 'LeaseTimeToLive reports a TTL in [min, max] seconds (etcd truncates toward zero).',
    fields: {
      lease,
      ttlSeconds: req('ttl', range(ttl, 'ttl bounds'), 'Bounds in seconds: { min, max }, either optional.'),
      via,
    },
  },
  'lease-keys': {
    description: 'Extension: LeaseTimeToLive with keys lists exactly these keys (in any order).',
    fields: { lease, keys: req('keys', list(key, { unique: true }), 'The keys attached to the lease.'), via },
  },
  leader: {
    description: 'The member is leader and its lessor is primary.',
    fields: { member: req('leader', member, 'Member expected to lead.') },
  },
  'keepalive-alive': {
    description: "The client's keep-alive channel for the lease is open / has closed.",
    fields: {
      lease: req('keepalive', leaseRef, 'Label of the lease kept alive.'),
      client: def('client', client, 'c1', 'Client running the keep-alive; default c1.'),
      alive: req('alive', bool, 'Whether the channel is still open.'),
    },
  },
  'keepalive-channel': {
    description:
      'Extension: the channel of a KeepAlive call named with as is open / closed, and the responses a ' +
      'reader has received on it (with unread-buffer: what the buffer holds).',
    fields: {
      channel: req('channel', answerRef, 'Name a keepalive step gave its call with "as".'),
      alive: opt('alive', bool, 'Whether the channel is still open.'),
      responses: opt(
        'responses',
        exactOrRange(int(0, MAX, 'a count (0 or more)'), 'response-count bounds'),
        'Responses received on the channel: exact, or { min, max }.',
      ),
      error: opt(
        'error',
        errorName,
        "The channel closed, and why, by etcd's name: ErrNoLeader (a require-leader stream lost its " +
          'leader), ErrLeaseNotFound (a TTL 0 response), context.Canceled (its context or the client closed).',
      ),
    },
    check: checkChannel,
  },
  'lock-held': {
    description: 'Extension: the client holds / does not hold the lock.',
    fields: {
      lock: req('lock', lockRef, 'Mutex prefix of an earlier lock step.'),
      client: req('client', client, 'Client in question.'),
      held: req('held', bool, 'Whether the client holds the lock.'),
    },
  },
  'session-lock-held': {
    description:
      'Extension: the mutex of that name on the session holds / does not hold the lock (the client believes it does).',
    fields: {
      lock: req('lock', lockRef, 'Mutex prefix of an earlier lock or trylock step on the session.'),
      session: req('session', sessionRef, 'Name of an earlier session step.'),
      held: req('held', bool, 'Whether that mutex holds the lock.'),
    },
  },
  'election-leader': {
    description:
      "Extension: a linearizable read finds the election's leader (the first-created key under its prefix) " +
      'with this value.',
    fields: {
      election: req('election', electionRef, 'Election prefix of an earlier campaign or observe step.'),
      leaderValue: req('leader-value', text('a value', { anyScalar: true, allowEmpty: true }), "The leader's value."),
    },
  },
  'election-observed': {
    description: "Extension: the session's Observe of the election has reported exactly these leader values, in order.",
    fields: {
      election: req('election', electionRef, 'Election prefix of an earlier observe step.'),
      session: req('session', sessionRef, 'Session the observe step ran on.'),
      observed: req('observed', list(text('a value', { anyScalar: true, allowEmpty: true })), 'Values, in order.'),
    },
  },
  'lock-contenders': {
    description:
      "Extension: a linearizable read finds this many keys under the lock's prefix: one per session " +
      'holding or waiting for the lock.',
    fields: {
      lock: req('lock', lockRef, 'Mutex prefix of an earlier lock or trylock step.'),
      contenders: req('contenders', int(0, MAX, 'a count (0 or more)'), 'Number of keys under the prefix.'),
    },
  },
  'session-done': {
    description: "Extension: the session's keep-alive has ended (Session.Done is closed) / is still running.",
    fields: {
      session: req('session', sessionRef, 'Name of an earlier session step.'),
      done: req('done', bool, 'Whether the session is done.'),
    },
  },
  'resource-accepted': {
    description: 'Extension: the fenced resource accepted exactly this many writes.',
    fields: {
      resource: req('resource', resourceRef, 'Resource of an earlier fenced-write step.'),
      accepted: req('accepted', int(0, MAX, 'a count (0 or more)'), 'Number of writes accepted.'),
    },
  },
  'resource-rejected': {
    description: 'Extension: the fenced resource rejected exactly this many writes (stale fencing tokens).',
    fields: {
      resource: req('resource', resourceRef, 'Resource of an earlier fenced-write step.'),
      rejected: req('rejected', int(0, MAX, 'a count (0 or more)'), 'Number of writes rejected.'),
    },
  },
  revision: {
    description: 'Extension: the current revision (on the leader, or on via) is within bounds.',
    fields: { revision: revisionRange, via },
  },
  'expiry-queue': {
    description:
      "Extension: the member's lessor holds this many entries in its expiry queue (etcd's " +
      'lease expired notifier). A follower should hold none (bug D1, etcd-io/etcd#11495).',
    fields: {
      member: req('member', member, 'Member whose lessor is inspected.'),
      entries: req(
        'expiry-queue',
        range(int(0, MAX, 'a count (0 or more)'), 'entry-count bounds'),
        'Bounds: { min, max }, either optional.',
      ),
    },
  },
  'leases-count': {
    description: 'Extension: LeaseLeases (on the leader, or on via) lists this many leases.',
    fields: { count: req('leases', leaseCount, 'Expected listing: { count: N }.'), via },
  },
  answer: {
    description:
      "Extension: the answer to a request an earlier step named with as: its error by etcd's name " +
      '(absent: it succeeded), the TTL, GrantedTTL, ID, lease list or revision it carried, and how long it took.',
    fields: ANSWER_FIELDS,
    check: checkAnswer,
  },
  ...SIGNAL_FORMS,
  'holder-acting': {
    description:
      'Extension: the holder believes, at this instant, that it holds its lock (its critical section runs) / does not.',
    fields: { holder, acting: req('acting', bool, 'Whether it believes it holds the lock.') },
  },
  'holder-after-loss': {
    description:
      'Extension: how long so far the holder went on believing it held the lock after its lease was really revoked.',
    fields: {
      holder,
      afterLossUs: req(
        'believed-after-loss',
        range(duration(), 'duration bounds'),
        'Bounds: { min, max } as durations, either optional.',
      ),
    },
  },
  'holder-stale-accepted': {
    description:
      'Extension: the fenced resource accepted exactly this many ' +
      "of the holder's writes made after its lease was revoked.",
    fields: {
      holder,
      staleAccepted: req('stale-accepted', int(0, MAX, 'a count (0 or more)'), 'Number of stale writes accepted.'),
    },
  },
  'holders-overlap': {
    description: 'Extension: how long so far two or more holders believed at once that they held the lock.',
    fields: {
      overlapUs: req(
        'overlap',
        range(duration(), 'duration bounds'),
        'Bounds: { min, max } as durations, either optional; { max: 0s } for none.',
      ),
    },
  },
};

interface FormEntry {
  readonly form: AssertionForm;
  readonly spec: FormSpec<object>;
  readonly required: readonly string[];
  readonly allowed: readonly string[];
}

export const FORMS: readonly FormEntry[] = (Object.entries(ASSERTION_FORMS) as [AssertionForm, FormSpec<object>][]).map(
  ([form, spec]) => {
    const fields = fieldList(spec.fields);
    return {
      form,
      spec,
      required: fields.filter((f) => f.presence === 'required').map((f) => f.key),
      allowed: fields.map((f) => f.key),
    };
  },
);

/** Every key some form accepts, in table order. */
export const ASSERTION_KEYS: readonly string[] = [...new Set(FORMS.flatMap((f) => f.allowed))];

const signature = (keys: readonly string[]) => `{${keys.join(', ')}}`;

/** Picks the one form `map` matches and decodes it; `alsoAllowed` are step keys listed in messages. */
export function decodeAssertion(map: FieldMap, ctx: ParseContext, alsoAllowed: readonly string[]): Assertion | Invalid {
  const given = map.entries.map((e) => e.key);
  const unknown = map.entries.filter((e) => !ASSERTION_KEYS.includes(e.key));
  for (const e of unknown) {
    const expected = [...ASSERTION_KEYS, ...alsoAllowed];
    ctx.error(
      e.keyPos,
      `unknown key ${quote(e.key)} in expect step; expected one ` +
        `of: ${expected.join(', ')}${didYouMean(e.key, expected)}`,
    );
  }
  if (unknown.length > 0) return INVALID;

  const matching = FORMS.filter((f) => f.required.every((k) => given.includes(k)));
  const fitting = matching.filter((f) => given.every((k) => f.allowed.includes(k)));
  const [only] = fitting;
  if (only && fitting.length === 1) {
    const d = decodeFields(only.spec.fields, map, `${only.form} assertion`, ctx);
    const v = only.spec.check === undefined || only.spec.check(d, ctx) ? complete(d) : INVALID;
    // The table's field types are the form's model type, so tagging the value makes it that Assertion.
    return v === INVALID ? v : ({ form: only.form, pos: map.pos, ...(v as Record<string, unknown>) } as Assertion);
  }
  ctx.error(map.pos, mismatchMessage(given, matching));
  return INVALID;
}

function mismatchMessage(given: readonly string[], matching: readonly FormEntry[]): string {
  const [one] = matching;
  if (matching.length > 1) {
    return (
      `expect holds more than one assertion (` +
      `${matching.map((f) => signature(f.required)).join(' and ')}); give each its own expect step`
    );
  }
  if (one) {
    const extra = given.filter((k) => !one.allowed.includes(k));
    return (
      `${extra.map((k) => `"${k}"`).join(', ')} does not belong in ` +
      `a ${one.form} assertion; it takes: ${one.allowed.join(', ')}`
    );
  }
  const overlap = (f: FormEntry) => f.required.filter((k) => given.includes(k)).length;
  const most = Math.max(...FORMS.map(overlap));
  const near = most > 0 ? FORMS.filter((f) => overlap(f) === most) : FORMS;
  const found = given.length > 0 ? `incomplete assertion ${signature(given)}` : 'expect needs an assertion';
  return `${found}; expected one of: ${near.map((f) => signature(f.required)).join(', ')}`;
}

/** JSON Schema of an assertion: any one form; `extra` are step keys allowed inside it too. */
export function assertionSchema(extra: Record<string, JsonSchema>): JsonSchema {
  return {
    anyOf: FORMS.map((f) => {
      const schema = objectSchema(f.spec.fields, f.spec.description);
      return {
        title: f.form,
        ...schema,
        properties: { ...(schema.properties as Record<string, JsonSchema>), ...extra },
      };
    }),
  };
}

/** Every form's field schemas by key, for assertion keys written beside `expect`. */
export function assertionFieldSchemas(): Record<string, JsonSchema> {
  const out: Record<string, JsonSchema> = {};
  for (const f of FORMS.flatMap((form) => fieldList(form.spec.fields))) {
    const schema = fieldSchema(f);
    const seen = out[f.key];
    // A key shared by forms (key, lease, via…) usually means the same; describe it once when it does.
    out[f.key] =
      seen === undefined || JSON.stringify(seen) === JSON.stringify(schema) ? schema : { anyOf: [seen, schema] };
  }
  return out;
}
