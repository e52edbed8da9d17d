/**
 * Named answers: `as: NAME` on a request step names its answer, and `expect: { answer: NAME, … }`
 * asserts on it: the error by etcd's name, the values the answer carried, and how long it took. Which
 * values an answer can carry depends on the request, so the parser refuses a field the named request
 * never answers with (a TTL on a revoke), pointing at the field.
 */
import { reject, type Codec } from './codec.js';
import { txnResponses } from './txn-answer-form.js';
import {
  answerName,
  bool,
  answerRef,
  duration,
  exactOrRange,
  int,
  leaseId,
  leaseRef,
  list,
  range,
  text,
  ttl,
} from './codecs.js';
import type { ParseContext } from './context.js';
import { opt, req, type Decoded, type FieldsFor } from './fields.js';
import { describeNode, quote } from './node.js';
import { didYouMean } from './suggest.js';
import { ANSWER_ERROR_NAMES, errorNameOf } from './answer-errors.js';
import type { AnswerAssertion, IntRange } from './types.js';

/** The `as` field of a request step. */
export const answerAs = opt(
  'as',
  answerName,
  "Names this request's answer, for a later expect: { answer: NAME, … } (error, TTL, ID, latency).",
);

/** Registers the name a decoded step gives its answer; a name used twice is an error at the second. */
export function defineAnswer(op: string, d: Decoded<{ as?: string }>, ctx: ParseContext): boolean {
  const name = d.value.as;
  if (name === undefined) return true;
  const at = d.posOf.as ?? d.pos;
  const first = ctx.answers.get(name);
  if (first !== undefined) {
    ctx.error(at, `answer name ${quote(name)} is already given at line ${first.pos.line}; each answer has its own`);
    return false;
  }
  ctx.answers.set(name, { op, pos: at });
  return true;
}

export const errorName: Codec<string> = {
  expected: `an etcd error name such as ErrLeaseNotFound`,
  schema: { enum: ANSWER_ERROR_NAMES },
  decode(node, ctx) {
    const v = node.kind === 'scalar' && typeof node.value === 'string' ? node.value : undefined;
    const name = v === undefined ? undefined : errorNameOf(v);
    if (name !== undefined) return name;
    return reject(
      ctx,
      node,
      `expected an etcd error name (one of ${ANSWER_ERROR_NAMES.join(', ')}), found ${describeNode(node)}` +
        didYouMean(v ?? '', ANSWER_ERROR_NAMES),
    );
  },
};

const MAX = Number.MAX_SAFE_INTEGER;
type AnswerFields = Omit<AnswerAssertion, 'form' | 'pos'>;

export const ANSWER_FIELDS: FieldsFor<AnswerFields> = {
  answer: req('answer', answerRef, 'Name an earlier request step gave its answer with "as".'),
  error: opt(
    'error',
    errorName,
    "The error the request failed with, by etcd's name (context.DeadlineExceeded for the caller's " +
      'own deadline); absent: the request must have succeeded.',
  ),
  ttlSeconds: opt('ttl', exactOrRange(ttl, 'ttl bounds'), 'TTL in the answer (seconds): exact, or { min, max }.'),
  grantedTtlSeconds: opt(
    'granted-ttl',
    exactOrRange(ttl, 'granted-ttl bounds'),
    'GrantedTTL in a TimeToLive answer (seconds): exact, or { min, max }.',
  ),
  id: opt('id', leaseId, 'Lease ID in the answer (int64, decimal or "0x" hex).'),
  lease: opt('lease', leaseRef, "The answer's lease ID is this label's."),
  leases: opt('leases', list(leaseRef), 'A LeaseLeases answer lists exactly these leases, in this order.'),
  keys: opt(
    'keys',
    list(text('a key', { anyScalar: true }), { unique: true }),
    'A TimeToLive answer lists exactly these attached keys, in any order ([] for none).',
  ),
  revision: opt(
    'revision',
    exactOrRange(int(0, MAX, 'a revision (0 or more)'), 'revision bounds'),
    "The answer header's revision: exact, or { min, max }.",
  ),
  succeeded: opt('succeeded', bool, "A txn answer: whether the txn's compares held."),
  responses: opt('responses', txnResponses(), 'A txn answer: what each op of the branch taken returned, in order.'),
  withinUs: opt('within', duration(), 'The answer came at most this long after the request was sent.'),
  tookUs: opt(
    'took',
    range(duration(), 'duration bounds'),
    'From sending the request to its answer: { min, max } as durations, either optional.',
  ),
};

/** Which value fields an answer to each request kind can carry; other kinds answer only an error. */
const VALUES_OF: Readonly<Record<string, readonly (keyof AnswerFields)[]>> = {
  grant: ['ttlSeconds', 'id', 'lease'],
  put: ['revision'],
  delete: ['revision'],
  'keepalive-once': ['ttlSeconds', 'id', 'lease'],
  keepalive: ['ttlSeconds', 'id', 'lease'],
  timetolive: ['ttlSeconds', 'grantedTtlSeconds', 'id', 'lease', 'keys', 'revision'],
  leases: ['leases'],
  revoke: ['revision'],
  lock: ['revision'],
  unlock: ['revision'],
  trylock: ['revision'],
  session: ['id', 'lease'],
  'session-close': ['revision'],
  campaign: ['revision'],
  resign: ['revision'],
  txn: ['revision', 'succeeded', 'responses'],
  compact: ['revision'],
};
const VALUE_FIELDS: readonly (keyof AnswerFields)[] = [
  'ttlSeconds',
  'grantedTtlSeconds',
  'id',
  'lease',
  'leases',
  'keys',
  'revision',
  'succeeded',
  'responses',
];

/** A value field the named request never answers with, or values beside an expected error. */
export function checkAnswer(d: Decoded<AnswerFields>, ctx: ParseContext): boolean {
  const name = d.value.answer;
  const named = name === undefined ? undefined : ctx.answers.get(name);
  if (named === undefined) return d.ok;
  const carries = VALUES_OF[named.op] ?? [];
  let ok = d.ok;
  for (const f of VALUE_FIELDS) {
    const at = d.posOf[f];
    if (at === undefined) continue;
    const key = ANSWER_FIELDS[f].key;
    if (d.value.error !== undefined) {
      ctx.error(at, `"${key}" beside "error": a failed request's answer carries no values`);
      ok = false;
    } else if (!carries.includes(f)) {
      const has = carries.map((c) => ANSWER_FIELDS[c].key);
      ctx.error(
        at,
        `a ${named.op} answer (line ${named.pos.line}) carries no ${key}; ` +
          `it carries ${has.length > 0 ? has.join(', ') : 'only an error or success'}`,
      );
      ok = false;
    }
  }
  return ok;
}

/** `expect: { channel }` names a keepalive call and says something about it. */
export function checkChannel(
  d: Decoded<{ channel: string; alive?: boolean; responses?: IntRange; error?: string }>,
  ctx: ParseContext,
): boolean {
  const name = d.value.channel;
  const named = name === undefined ? undefined : ctx.answers.get(name);
  if (named !== undefined && named.op !== 'keepalive') {
    ctx.error(
      d.posOf.channel ?? d.pos,
      `${quote(name ?? '')} names a ${named.op} (line ${named.pos.line}), not a keepalive call`,
    );
    return false;
  }
  if (d.posOf.alive === undefined && d.posOf.responses === undefined && d.posOf.error === undefined) {
    ctx.error(d.pos, 'a channel assertion needs "alive", "responses" or "error"');
    return false;
  }
  if (d.posOf.error !== undefined && d.value.alive === true) {
    ctx.error(d.posOf.error, '"error" says why the channel closed; it cannot go with "alive: true"');
    return false;
  }
  return d.ok;
}
