/** The `txn` step (one etcd Txn, compares on every target, nested txns) and the `compact` step. */
import type { Compare, RequestOp, TxnRequest } from '../../cluster/server/api.js';
import { INVALID, mismatch, reject, type Codec, type JsonSchema } from '../codec.js';
import { bool, int, leaseId, leaseRef, list, object, oneOf } from '../codecs.js';
import type { ParseContext } from '../context.js';
import { def, opt, req, type Decoded, type FieldsFor } from '../fields.js';
import { quote } from '../node.js';
import type { StepReplay } from '../replay/step-replay.js';
import { didYouMean } from '../suggest.js';
import type { CompareOp, TxnCompareSpec, TxnOpSpec, TxnSpec } from '../types.js';
import { answerAs } from '../answer-form.js';
import type { StepKindEntries } from './entry.js';
import { key, value, via, viaText } from './shared-fields.js';

/** How deep txn ops may nest in a scenario file (etcd has no limit; the schema needs one). */
export const TXN_NESTING = 3;

const revisionInt = int(0, Number.MAX_SAFE_INTEGER, 'a revision (0 or more)');
const rangeEnd = opt(
  'range-end',
  value,
  'End of the key range [key, range-end); "\\0" for every key from key on. Default: the key alone.',
);

const OPERANDS = ['version', 'create', 'mod', 'value', 'lease', 'leaseId'] as const;

const COMPARE_FIELDS: FieldsFor<TxnCompareSpec> = {
  key: req('key', key, 'Key compared (every key of the range, with range-end).'),
  rangeEnd,
  result: def('result', oneOf<CompareOp>(['=', '!=', '>', '<']), '=', "Operator, the key's field on the left."),
  version: opt('version', revisionInt, 'Compare the version (0 for a missing key).'),
  create: opt('create', revisionInt, 'Compare the create revision (0 for a missing key).'),
  mod: opt('mod', revisionInt, 'Compare the mod revision (0 for a missing key).'),
  value: opt('value', value, 'Compare the value (a missing key fails every value compare).'),
  lease: opt('lease', leaseRef, "Compare the key's lease with this label's (0 for a missing key)."),
  leaseId: opt('lease-id', leaseId, "Compare the key's lease with a raw ID (0: no lease)."),
};

/** Exactly one operand: its field is the compare's target. */
function oneOperand(d: Decoded<TxnCompareSpec>, ctx: ParseContext): boolean {
  const given = OPERANDS.filter((o) => d.posOf[o] !== undefined);
  if (given.length === 1) return d.ok;
  ctx.error(
    given.length > 1 ? d.posOf[given[1]!]! : d.pos,
    'a compare needs exactly one of version, create, mod, value, lease, lease-id (its target)',
  );
  return false;
}

const compare = object(COMPARE_FIELDS, 'txn compare', { check: oneOperand });

type GetOp = Omit<Extract<TxnOpSpec, { op: 'get' }>, 'op'>;
type PutOp = Omit<Extract<TxnOpSpec, { op: 'put' }>, 'op'>;
type DeleteOp = Omit<Extract<TxnOpSpec, { op: 'delete' }>, 'op'>;

const GET_FIELDS: FieldsFor<GetOp> = {
  key: req('key', key, 'Key to read.'),
  rangeEnd,
  limit: opt('limit', int(0, Number.MAX_SAFE_INTEGER, 'a limit (0 for none)'), 'Most keys returned; 0 for no limit.'),
  revision: opt('revision', revisionInt, 'Read the keyspace as of this revision; 0 for the current one.'),
  keysOnly: opt('keys-only', bool, 'Leave values out.'),
  countOnly: opt('count-only', bool, 'Only count the keys.'),
};
const PUT_FIELDS: FieldsFor<PutOp> = {
  key: req('key', key, 'Key to write.'),
  value: def('value', value, '', 'Value to write (empty with ignore-value).'),
  lease: opt('lease', leaseRef, 'Label of an earlier-granted lease to attach the key to.'),
  leaseId: opt('lease-id', leaseId, 'A raw lease ID to attach the key to.'),
  prevKv: opt('prev-kv', bool, 'Ask for the key as it was before.'),
  ignoreValue: opt('ignore-value', bool, "Keep the key's value (the key must exist)."),
  ignoreLease: opt('ignore-lease', bool, "Keep the key's lease (the key must exist)."),
};
const DELETE_FIELDS: FieldsFor<DeleteOp> = {
  key: req('key', key, 'Key to delete.'),
  rangeEnd,
  prevKv: opt('prev-kv', bool, 'Ask for the deleted key-values.'),
};

function onePutLease(d: Decoded<PutOp>, ctx: ParseContext): boolean {
  if (d.posOf.lease === undefined || d.posOf.leaseId === undefined) return d.ok;
  ctx.error(d.posOf.leaseId, 'give "lease" (a label) or "lease-id" (a raw ID), not both');
  return false;
}

/** The branch lists and compares of a txn whose ops may nest `depth` more levels. */
function txnFields(depth: number): FieldsFor<TxnSpec> {
  const ops = list(txnOp(depth));
  return {
    compare: def('compare', list(compare), [], 'Compares that must all hold for success to run.'),
    success: def('success', ops, [], 'Ops run when every compare holds.'),
    failure: def('failure', ops, [], 'Ops run otherwise.'),
  };
}

/** One op: a map with a single key, get, put, delete or (while nesting allows) txn. */
function txnOp(depth: number): Codec<TxnOpSpec> {
  const kinds: Record<string, Codec<object>> = {
    get: object(GET_FIELDS, 'txn get'),
    put: object(PUT_FIELDS, 'txn put', { check: onePutLease }),
    delete: object(DELETE_FIELDS, 'txn delete'),
    ...(depth > 0 ? { txn: object(txnFields(depth - 1), 'nested txn') } : {}),
  };
  const names = Object.keys(kinds);
  const expected = `a map with one key, ${names.join(', ')}`;
  return {
    expected,
    // One recursive definition (schema.ts's $defs) instead of a copy per nesting level.
    schema: { $ref: '#/$defs/txn-op' },
    decode(node, ctx) {
      if (node.kind !== 'map' || node.entries.length !== 1) return mismatch(ctx, node, expected);
      const e = node.entries[0]!;
      const codec = kinds[e.key];
      if (codec === undefined) {
        const why = e.key === 'txn' ? ` (txns nest at most ${TXN_NESTING} levels)` : didYouMean(e.key, names);
        return reject(ctx, node, `unknown txn op ${quote(e.key)}; expected one of ${names.join(', ')}${why}`);
      }
      const v = codec.decode(e.value, ctx);
      return v === INVALID ? INVALID : ({ op: e.key, ...v } as TxnOpSpec);
    },
  };
}

/** The schema of one txn op, `$defs/txn-op`: a nested txn's lists refer back to it. */
export function txnOpSchema(): JsonSchema {
  const kinds = {
    get: object(GET_FIELDS, 'txn get'),
    put: object(PUT_FIELDS, 'txn put'),
    delete: object(DELETE_FIELDS, 'txn delete'),
    txn: object(txnFields(0), 'nested txn'),
  };
  return {
    description: `One txn op: a map with one key, get, put, delete or txn (txns nest at most ${TXN_NESTING} levels).`,
    type: 'object',
    minProperties: 1,
    maxProperties: 1,
    properties: Object.fromEntries(Object.entries(kinds).map(([k, c]) => [k, c.schema])),
    additionalProperties: false,
  };
}

export const TXN_STEPS: StepKindEntries<'txn' | 'compact'> = {
  compact: {
    description:
      "Extension: etcd's Compact (etcdctl compaction): reads and watches below the revision fail with " +
      'ErrCompacted from then on; compacting at or below the last compaction is ErrCompacted too.',
    fields: {
      revision: req('revision', revisionInt, 'Drop the history before this revision.'),
      via,
      as: answerAs,
    },
    describe: (s) => `compact at revision ${s.revision}${viaText(s.via)}`,
    perform: (s, r) => r.ctl(s.via).compact(s.revision, r.answer('compact', undefined, undefined, s.as)),
  },
  txn: {
    description:
      'Extension: one etcd Txn (KV API): compares on version, create, mod, value or lease with =, !=, >, <; ' +
      'get, put, delete and nested txn ops. Its answer (as) says whether it succeeded and what each op returned.',
    fields: { ...txnFields(TXN_NESTING), via, as: answerAs },
    describe: (s) => `txn (${s.compare.length} compares, ${s.success.length}/${s.failure.length} ops)${viaText(s.via)}`,
    perform: (s, r) =>
      withLeases(r, leaseLabels(s), {}, (ids) =>
        r.ctl(s.via).txn(toRequest(s, ids), r.answer('txn', undefined, undefined, s.as)),
      ),
  },
};

/** Every lease label the txn names, nested ones included, once each. */
export function leaseLabels(t: TxnSpec): string[] {
  const out = new Set<string>();
  const walk = (t: TxnSpec): void => {
    for (const c of t.compare) if (c.lease !== undefined) out.add(c.lease);
    for (const op of [...t.success, ...t.failure]) {
      if (op.op === 'put' && op.lease !== undefined) out.add(op.lease);
      if (op.op === 'txn') walk(op);
    }
  };
  walk(t);
  return [...out];
}

/** Runs `fn` once every label's lease ID is known. */
function withLeases(
  r: StepReplay,
  labels: readonly string[],
  ids: Readonly<Record<string, bigint>>,
  fn: (ids: Readonly<Record<string, bigint>>) => void,
): void {
  const [first, ...rest] = labels;
  if (first === undefined) return fn(ids);
  r.withLease(first, 'txn', (id) => withLeases(r, rest, { ...ids, [first]: id }, fn));
}

const RESULTS: Readonly<Record<CompareOp, Compare['result']>> = {
  '=': 'EQUAL',
  '!=': 'NOT_EQUAL',
  '>': 'GREATER',
  '<': 'LESS',
};

/** The scenario's txn as etcd's TxnRequest, lease labels replaced by their IDs. */
export function toRequest(t: TxnSpec, ids: Readonly<Record<string, bigint>>): TxnRequest {
  const leaseOf = (label: string | undefined, raw: bigint | undefined): bigint =>
    label !== undefined ? ids[label]! : (raw ?? 0n);
  const cmp = (c: TxnCompareSpec): Compare => {
    const base = {
      key: c.key,
      result: RESULTS[c.result],
      ...(c.rangeEnd !== undefined ? { rangeEnd: c.rangeEnd } : {}),
    };
    if (c.version !== undefined) return { ...base, target: 'VERSION', version: c.version };
    if (c.create !== undefined) return { ...base, target: 'CREATE', createRevision: c.create };
    if (c.mod !== undefined) return { ...base, target: 'MOD', modRevision: c.mod };
    if (c.value !== undefined) return { ...base, target: 'VALUE', value: c.value };
    return { ...base, target: 'LEASE', lease: leaseOf(c.lease, c.leaseId) };
  };
  const op = (o: TxnOpSpec): RequestOp => {
    switch (o.op) {
      case 'get': {
        const { op: _, ...rest } = o;
        return { op: 'Range', ...rest };
      }
      case 'put': {
        const { op: _, lease, leaseId: raw, ...rest } = o;
        return { op: 'Put', ...rest, lease: leaseOf(lease, raw) };
      }
      case 'delete': {
        const { op: _, ...rest } = o;
        return { op: 'DeleteRange', ...rest };
      }
      case 'txn':
        return toRequest(o, ids);
    }
  };
  return { op: 'Txn', compare: t.compare.map(cmp), success: t.success.map(op), failure: t.failure.map(op) };
}

type Plain = string | number | bigint | boolean | readonly Plain[] | { readonly [k: string]: Plain };

/** The fields of a decoded map back under their YAML keys (absent ones left out). */
function yamlKeys(fields: object, v: object): Record<string, Plain> {
  const out: Record<string, Plain> = {};
  for (const [prop, f] of Object.entries(fields) as [string, { key: string }][]) {
    const x = (v as Record<string, unknown>)[prop];
    if (x !== undefined) out[f.key] = x as Plain;
  }
  return out;
}

/** A txn's compare and branch lists as a scenario file writes them: the inverse of the parser. */
export function txnYaml(t: TxnSpec): Record<string, Plain> {
  const op = (o: TxnOpSpec): Plain => {
    switch (o.op) {
      case 'get':
        return { get: yamlKeys(GET_FIELDS, o) };
      case 'put':
        return { put: yamlKeys(PUT_FIELDS, o) };
      case 'delete':
        return { delete: yamlKeys(DELETE_FIELDS, o) };
      case 'txn':
        return { txn: txnYaml(o) };
    }
  };
  return {
    compare: t.compare.map((c) => yamlKeys(COMPARE_FIELDS, c)),
    success: t.success.map(op),
    failure: t.failure.map(op),
  };
}
