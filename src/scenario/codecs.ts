/** The value types scenario fields are made of, each a codec (decoder plus JSON Schema). */
import type { Micros } from '../clock/time.js';
import { INVALID, mismatch, reject, type Codec, type Invalid } from './codec.js';
import { MAX_MEMBERS, type ParseContext } from './context.js';
import { formatDuration, parseDuration } from './duration.js';
import { complete, decodeFields, objectSchema, opt, type Decoded, type FieldsFor } from './fields.js';
import { describeNode, quote, type PNode } from './node.js';
import { didYouMean } from './suggest.js';
import type { IntRange, SourcePos } from './types.js';

export const bool: Codec<boolean> = {
  expected: 'true or false',
  schema: { type: 'boolean' },
  decode: (node, ctx) =>
    node.kind === 'scalar' && typeof node.value === 'boolean' ? node.value : mismatch(ctx, node, 'true or false'),
};

interface TextOptions {
  /** Also take numbers and booleans, as written (`value: 042` is "042"): keys and values are data. */
  readonly anyScalar?: boolean;
  readonly allowEmpty?: boolean;
  readonly pattern?: RegExp;
}

export function text(expected: string, opts: TextOptions = {}): Codec<string> {
  return {
    expected,
    schema: {
      type: opts.anyScalar ? ['string', 'number', 'boolean'] : 'string',
      ...(opts.allowEmpty ? {} : { minLength: 1 }),
      ...(opts.pattern ? { pattern: opts.pattern.source } : {}),
    },
    decode(node, ctx) {
      if (node.kind !== 'scalar' || node.value === null) return mismatch(ctx, node, expected);
      if (typeof node.value !== 'string' && !opts.anyScalar) return mismatch(ctx, node, expected);
      const s = typeof node.value === 'string' ? node.value : node.text;
      if ((s === '' && !opts.allowEmpty) || (opts.pattern && !opts.pattern.test(s)))
        return mismatch(ctx, node, expected);
      return s;
    },
  };
}

export function oneOf<V extends string>(values: readonly V[]): Codec<V> {
  const expected = `one of ${values.join(', ')}`;
  return {
    expected,
    schema: { enum: values },
    decode(node, ctx) {
      const v = node.kind === 'scalar' ? node.text : '';
      if (node.kind === 'scalar' && typeof node.value === 'string' && (values as readonly string[]).includes(v))
        return v as V;
      return reject(ctx, node, `expected ${expected}, found ${describeNode(node)}${didYouMean(v, values)}`);
    },
  };
}

/** An integer in [min, max]; YAML integers arrive as bigint, and integral floats (`1e3`) are accepted. */
export function int(min: number, max: number, expected = `an integer from ${min} to ${max}`): Codec<number> {
  return {
    expected,
    schema: { type: 'integer', minimum: min, maximum: max },
    decode(node, ctx) {
      const v = node.kind === 'scalar' ? node.value : null;
      const fits =
        typeof v === 'bigint'
          ? v >= BigInt(min) && v <= BigInt(max)
          : typeof v === 'number' && Number.isInteger(v) && v >= min && v <= max;
      return fits ? Number(v) : mismatch(ctx, node, expected);
    },
  };
}

/** A TTL in whole seconds. Any int64-safe value: etcd clamps small ones and rejects huge ones at run time. */
export const ttl = int(-9e15, 9e15, 'a TTL in whole seconds (an integer, at most 9e15 in size)');

/** A probability in [0, 1). */
export const probability: Codec<number> = {
  expected: 'a probability p with 0 <= p < 1',
  schema: { type: 'number', minimum: 0, exclusiveMaximum: 1 },
  decode(node, ctx) {
    const v = node.kind === 'scalar' ? node.value : null;
    const p = typeof v === 'bigint' ? Number(v) : v;
    return typeof p === 'number' && p >= 0 && p < 1 ? p : mismatch(ctx, node, 'a probability p with 0 <= p < 1');
  },
};

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const ID_TEXT = /^(-?)(0[xX][0-9a-fA-F]{1,16}|[0-9]{1,19})$/;

/** A lease ID: a 64-bit signed integer, as a YAML integer or a decimal or `0x` hex string. */
export const leaseId: Codec<bigint> = {
  expected: 'a lease ID: a signed 64-bit integer, as a number or a decimal or hex string ("0x1f")',
  schema: { anyOf: [{ type: 'integer' }, { type: 'string', pattern: ID_TEXT.source }] },
  decode(node, ctx) {
    const v = node.kind === 'scalar' ? node.value : null;
    let id: bigint | undefined;
    if (typeof v === 'bigint') id = v;
    else if (typeof v === 'number' && Number.isSafeInteger(v)) id = BigInt(v);
    else if (typeof v === 'string') {
      const m = ID_TEXT.exec(v);
      if (m) id = m[1] === '-' ? -BigInt(m[2] ?? '') : BigInt(m[2] ?? '');
    }
    if (id !== undefined && id >= INT64_MIN && id <= INT64_MAX) return id;
    return mismatch(ctx, node, leaseId.expected);
  },
};

const DURATION = '(?:\\d+(?:\\.\\d+)?(?:h|ms|m|s|us|µs|μs))+';

export function duration(opts: { readonly signed?: boolean; readonly positive?: boolean } = {}): Codec<Micros> {
  const expected = opts.signed
    ? 'a signed duration such as 30s or -1m30s'
    : `a ${opts.positive ? 'positive ' : ''}duration such as 250ms, 4.5s or 1m30s`;
  return {
    expected,
    schema: { type: 'string', pattern: `^${opts.signed ? '[-+]?' : ''}${DURATION}$` },
    decode(node, ctx) {
      if (node.kind !== 'scalar' || typeof node.value !== 'string') {
        const numeric =
          node.kind === 'scalar' && ['number', 'bigint'].includes(typeof node.value) && node.text.length <= 20;
        const hint = numeric ? ` (a duration needs a unit: ${node.text}s, ${node.text}ms)` : '';
        return reject(ctx, node, `expected ${expected}, found ${describeNode(node)}${hint}`);
      }
      const r = parseDuration(node.value, { signed: opts.signed === true });
      if (!r.ok) return reject(ctx, node, r.message);
      if (opts.positive && r.us <= 0) return mismatch(ctx, node, expected);
      return r.us;
    },
    encode: formatDuration,
  };
}

const MEMBER = /^n([1-9][0-9]*)$/;

function memberList(members: number): string {
  return members === 1 ? 'one member, n1' : `members n1..n${members}`;
}

/** `n1`..`nN` for the configured member count. */
export const member: Codec<string> = {
  expected: 'a member name such as n1',
  schema: { type: 'string', pattern: `^n[1-${MAX_MEMBERS}]$` },
  decode(node, ctx) {
    if (node.kind !== 'scalar' || typeof node.value !== 'string') return mismatch(ctx, node, member.expected);
    const m = MEMBER.exec(node.value);
    if (m && Number(m[1]) <= ctx.members) return node.value;
    return reject(ctx, node, `unknown member ${quote(node.value)}; this cluster has ${memberList(ctx.members)}`);
  },
};

export const client = text('a client name such as c1 (lowercase letters, digits and dashes, starting with a letter)', {
  pattern: /^[a-z][a-z0-9-]*$/,
});

export const leaseLabel = text('a lease label (a non-empty name)', { anyScalar: true });

/** A name that some earlier step must have introduced; `unknown` phrases the error when none did. */
function reference(
  base: Codec<string>,
  known: (name: string, ctx: ParseContext) => boolean,
  unknown: (name: string) => string,
): Codec<string> {
  return {
    expected: base.expected,
    schema: base.schema,
    decode(node, ctx) {
      const name = base.decode(node, ctx);
      if (name === INVALID || known(name, ctx)) return name;
      return reject(ctx, node, unknown(name));
    },
  };
}

export const leaseRef = reference(
  leaseLabel,
  (label, ctx) => ctx.labels.find(label) !== undefined,
  (label) =>
    `lease label ${quote(label)} is not granted by any earlier step; ` +
    `a label must be defined by grant or grant-many before it is used`,
);

export const lockName = text('a lock name such as /locks/payment', { anyScalar: true });

export const lockRef = reference(
  lockName,
  (name, ctx) => ctx.locks.has(name),
  (name) => `lock ${quote(name)} is not requested by any earlier lock step`,
);

export const sessionName = text(
  'a session name such as s1 (lowercase letters, digits and dashes, starting with a letter)',
  { pattern: /^[a-z][a-z0-9-]*$/ },
);

export const sessionRef = reference(
  sessionName,
  (name, ctx) => ctx.sessions.has(name),
  (name) => `session ${quote(name)} is not created by any earlier session step`,
);

export const electionRef = reference(
  lockName,
  (name, ctx) => ctx.elections.has(name),
  (name) => `election ${quote(name)} is not used by any earlier campaign or observe step`,
);

export const resourceName = text('a resource name', { anyScalar: true });

export const resourceRef = reference(
  resourceName,
  (name, ctx) => ctx.resources.has(name),
  (name) => `resource ${quote(name)} is not written by any earlier fenced-write step`,
);

export function list<T>(item: Codec<T>, opts: { readonly unique?: boolean } = {}): Codec<T[]> {
  const expected = `a list of ${item.expected.replace(/^an? /, '')}s`;
  return {
    expected,
    schema: { type: 'array', items: item.schema, ...(opts.unique ? { uniqueItems: true } : {}) },
    decode(node, ctx) {
      if (node.kind !== 'seq') return mismatch(ctx, node, expected);
      const out: T[] = [];
      const seen = new Set<string>();
      let ok = true;
      for (const n of node.items) {
        const v = item.decode(n, ctx);
        if (v === INVALID) ok = false;
        else if (opts.unique && seen.has(String(v))) {
          ctx.error(n.pos, `${quote(String(v))} is listed twice`);
          ok = false;
        } else {
          seen.add(String(v));
          out.push(v);
        }
      }
      return ok ? out : INVALID;
    },
  };
}

/**
 * A closed map decoded by a field table. The optional cross-field `check` runs even when some field is
 * bad (its values are partial then), reports its own errors and returns whether it passed.
 */
export function object<T>(
  fields: FieldsFor<T>,
  where: string,
  opts: { readonly schema?: object; readonly check?: (d: Decoded<T>, ctx: ParseContext) => boolean } = {},
): Codec<T> {
  return {
    expected: `a map (${where})`,
    schema: { ...objectSchema(fields), ...opts.schema },
    decode(node, ctx) {
      if (node.kind !== 'map') return mismatch(ctx, node, `a map (${where})`);
      const d = decodeFields(fields, node, where, ctx);
      const checked = opts.check ? opts.check(d, ctx) : true;
      return checked ? complete(d) : INVALID;
    },
    // Object defaults are spelled out field by field in the schema; a whole-object default adds nothing.
    encode: () => undefined,
  };
}

/** A codec whose decoded value is passed through `f`. */
export function mapped<A, B>(codec: Codec<A>, f: (a: A) => B): Codec<B> {
  return {
    expected: codec.expected,
    schema: codec.schema,
    decode(node, ctx) {
      const a = codec.decode(node, ctx);
      // A generic A does not narrow on the INVALID check; A never is that symbol, so the cast is exact.
      return a === INVALID ? INVALID : f(a as A);
    },
  };
}

/** `{ min?, max? }` with at least one bound and min <= max. */
export function range(bound: Codec<number>, where: string): Codec<IntRange> {
  const fields: FieldsFor<IntRange> = {
    min: opt('min', bound, 'lowest value that passes'),
    max: opt('max', bound, 'highest value that passes'),
  };
  return object(fields, where, {
    schema: { minProperties: 1 },
    check({ ok, value: { min, max }, pos }, ctx) {
      if (!ok) return false;
      if (min === undefined && max === undefined) {
        ctx.error(pos, `${where} needs "min", "max" or both`);
        return false;
      }
      if (min !== undefined && max !== undefined && min > max) {
        ctx.error(pos, `${where} has min ${min} greater than max ${max}; nothing could pass`);
        return false;
      }
      return true;
    },
  });
}

/** An exact integer (`ttl: 9`) or bounds (`ttl: { min: 8, max: 9 }`). */
export function exactOrRange(bound: Codec<number>, where: string): Codec<IntRange> {
  const bounds = range(bound, where);
  return {
    expected: `${bound.expected}, or ${bounds.expected}`,
    schema: { anyOf: [bound.schema, bounds.schema] },
    decode: (node, ctx) => {
      if (node.kind === 'map') return bounds.decode(node, ctx);
      const v = bound.decode(node, ctx);
      return v === INVALID ? v : { min: v, max: v };
    },
    encode: () => undefined,
  };
}

/** Partition groups: a list of non-empty lists of members, every member in exactly one group. */
export const groups: Codec<string[][]> = {
  expected: 'a list of member groups such as [[n1], [n2, n3]]',
  schema: { type: 'array', minItems: 1, items: { type: 'array', minItems: 1, items: member.schema } },
  decode(node, ctx) {
    if (node.kind !== 'seq') return mismatch(ctx, node, groups.expected);
    const seen = new Map<string, SourcePos>();
    const out: string[][] = [];
    let ok = true;
    for (const g of node.items) {
      const names = decodeGroup(g, seen, ctx);
      if (names === INVALID) ok = false;
      else out.push(names);
    }
    if (!ok) return INVALID;
    const missing = Array.from({ length: ctx.members }, (_, i) => `n${i + 1}`).filter((m) => !seen.has(m));
    if (missing.length > 0) {
      return reject(ctx, node, `partition leaves out ${missing.join(', ')}; list every member in exactly one group`);
    }
    return out;
  },
};

function decodeGroup(g: PNode, seen: Map<string, SourcePos>, ctx: ParseContext): string[] | Invalid {
  if (g.kind !== 'seq') return mismatch(ctx, g, 'a group: a list of member names such as [n1, n2]');
  if (g.items.length === 0) return reject(ctx, g, 'empty group; every group needs at least one member');
  const names: string[] = [];
  let ok = true;
  for (const n of g.items) {
    const m = member.decode(n, ctx);
    const first = m === INVALID ? undefined : seen.get(m);
    if (m === INVALID) ok = false;
    else if (first) {
      ctx.error(
        n.pos,
        `member ${m} is in two groups (first at ${first.line}:${first.col}); a member belongs to one group`,
      );
      ok = false;
    } else {
      seen.set(m, n.pos);
      names.push(m);
    }
  }
  return ok ? names : INVALID;
}

/** The name `as:` gives a request's answer. */
export const answerName = text('an answer name such as G1 (letters, digits, dashes and underscores)', {
  pattern: /^[A-Za-z][A-Za-z0-9_-]*$/,
});

export const answerRef = reference(
  answerName,
  (name, ctx) => ctx.answers.has(name),
  (name) => `answer ${quote(name)} is not named by any earlier step; name one with "as: ${name}" on a request step`,
);

export const holderName = text(
  'a holder name such as h1 (lowercase letters, digits and dashes, starting with a letter)',
  {
    pattern: /^[a-z][a-z0-9-]*$/,
  },
);

export const holderRef = reference(
  holderName,
  (name, ctx) => ctx.holders.has(name),
  (name) => `holder ${quote(name)} is not started by any earlier holder step`,
);

/** A built-in holder strategy, or `user:<name>`: a holder written in TypeScript, passed to the replay. */
export function holderStrategy(builtIn: readonly string[]): Codec<string> {
  const expected = `one of ${builtIn.join(', ')}, or user:<name>`;
  return {
    expected,
    schema: { anyOf: [{ enum: builtIn }, { type: 'string', pattern: '^user:[a-z][a-z0-9-]*$' }] },
    decode(node, ctx) {
      const v = node.kind === 'scalar' ? node.text : '';
      if (
        node.kind === 'scalar' &&
        typeof node.value === 'string' &&
        (builtIn.includes(v) || /^user:[a-z][a-z0-9-]*$/.test(v))
      )
        return v;
      return reject(
        ctx,
        node,
        `unknown holder strategy ${node.kind === 'scalar' ? quote(v) : describeNode(node)}` +
          `; expected ${expected}${didYouMean(v, builtIn)}`,
      );
    },
  };
}

/** A program under test, as serve names it (`--app NAME=CMD`; `app` for `serve FILE -- CMD`). */
export const appName = text('a program name (letters, digits, ".", "_" and "-", at most 64, as serve --app names it)', {
  pattern: /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/,
});
