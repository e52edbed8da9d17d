/** The Txn part of `expect: { answer }`: `succeeded` and what each op returned (`responses`). */
import { bool, exactOrRange, int, leaseId, leaseRef, list, object, text } from './codecs.js';
import type { Codec, JsonSchema } from './codec.js';
import { opt, req, type FieldsFor } from './fields.js';
import type { KvExpect, TxnOpExpect } from './types.js';

/** How deep expected responses nest (as deep as a scenario's txn ops). */
const NESTING = 3;

const count = int(0, Number.MAX_SAFE_INTEGER, 'a count (0 or more)');
const revision = int(0, Number.MAX_SAFE_INTEGER, 'a revision (0 or more)');

const KV_FIELDS: FieldsFor<KvExpect> = {
  key: req('key', text('a key', { anyScalar: true }), 'The key.'),
  value: opt('value', text('a value', { anyScalar: true, allowEmpty: true }), 'Its value.'),
  version: opt('version', count, 'Its version.'),
  create: opt('create', revision, 'Its create revision.'),
  mod: opt('mod', revision, 'Its mod revision.'),
  lease: opt('lease', leaseRef, "Its lease is this label's."),
  leaseId: opt('lease-id', leaseId, 'Its lease ID (0: none).'),
};

function opFields(depth: number): FieldsFor<TxnOpExpect> {
  return {
    revision: opt(
      'revision',
      exactOrRange(revision, 'revision bounds'),
      "The op's own header revision (0 for a nested txn).",
    ),
    kvs: opt('kvs', list(object(KV_FIELDS, 'expected key-value')), "A get's key-values: exactly these, in order."),
    count: opt('count', count, "A get's count of keys in range (before its limit)."),
    more: opt('more', bool, 'A get had more keys than its limit.'),
    deleted: opt('deleted', count, 'How many keys a delete deleted.'),
    succeeded: opt('succeeded', bool, 'A nested txn: whether its compares held.'),
    ...(depth > 0
      ? { responses: opt('responses', txnResponses(depth - 1), "A nested txn's op answers, in order.") }
      : ({} as { responses: never })),
  };
}

/** The list of expected op answers, nesting `depth` more levels. */
export function txnResponses(depth = NESTING): Codec<TxnOpExpect[]> {
  const item = object(opFields(depth), 'expected txn op answer');
  // One recursive definition (schema.ts's $defs) instead of a copy per nesting level.
  return list({ ...item, schema: { $ref: '#/$defs/txn-op-answer' } });
}

/** The schema of one expected op answer, `$defs/txn-op-answer`. */
export function txnOpAnswerSchema(): JsonSchema {
  return { ...object(opFields(1), 'expected txn op answer').schema, description: 'What one txn op answered.' };
}
