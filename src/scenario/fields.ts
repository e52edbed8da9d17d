/**
 * Field tables: a map from a model property to the YAML key that fills it, its codec, and whether it is
 * required, optional or defaulted. `FieldsFor<T>` makes the compiler check a table against its model
 * type: every property has exactly one entry, optional properties have no default, and the rest are
 * required or defaulted. One generic decoder and one schema generator serve every table.
 */
import { INVALID, type Codec, type Invalid, type JsonSchema } from './codec.js';
import type { ParseContext } from './context.js';
import { quote, type PEntry, type PNode } from './node.js';
import { didYouMean } from './suggest.js';
import type { SourcePos } from './types.js';

interface FieldBase<V> {
  /** The YAML key. */
  readonly key: string;
  readonly codec: Codec<V>;
  readonly description: string;
}
export interface RequiredField<V> extends FieldBase<V> {
  readonly presence: 'required';
}
export interface OptionalField<V> extends FieldBase<V> {
  readonly presence: 'optional';
}
export interface DefaultField<V> extends FieldBase<V> {
  readonly presence: 'default';
  readonly default: V;
}
type AnyField = RequiredField<unknown> | OptionalField<unknown> | DefaultField<unknown>;

type IsOptional<T, P extends keyof T> = object extends Pick<T, P> ? true : false;

export type FieldsFor<T> = {
  readonly [P in keyof T]-?: IsOptional<T, P> extends true
    ? OptionalField<Exclude<T[P], undefined>>
    : RequiredField<T[P]> | DefaultField<T[P]>;
};

export const req = <V>(key: string, codec: Codec<V>, description: string): RequiredField<V> => ({
  key,
  codec,
  description,
  presence: 'required',
});
export const opt = <V>(key: string, codec: Codec<V>, description: string): OptionalField<V> => ({
  key,
  codec,
  description,
  presence: 'optional',
});
export const def = <V>(key: string, codec: Codec<V>, value: V, description: string): DefaultField<V> => ({
  key,
  codec,
  description,
  presence: 'default',
  default: value,
});

/** The value an absent map takes: every field's default. Only for tables without required fields. */
export function defaultsOf<T>(fields: FieldsFor<T>): T {
  const entries = Object.entries(fields) as [string, AnyField][];
  return Object.fromEntries(entries.flatMap(([prop, f]) => (f.presence === 'default' ? [[prop, f.default]] : []))) as T;
}

export function fieldList(fields: object): AnyField[] {
  return Object.values(fields) as AnyField[];
}

export function fieldKeys(fields: object): string[] {
  return fieldList(fields).map((f) => f.key);
}

/** The key/value pairs a table decodes, and where they sit (for "missing key" errors). */
export interface FieldMap {
  readonly entries: readonly PEntry[];
  readonly pos: SourcePos;
}

/**
 * What a table decoded. `value` holds every field that decoded (and every default), so hooks can still
 * register what a step introduces when a sibling field is bad; `ok` says whether all of them did.
 */
export interface Decoded<T> {
  readonly ok: boolean;
  readonly value: Partial<T>;
  readonly pos: SourcePos;
  /** Where each property given in the file was written. */
  readonly posOf: { readonly [P in keyof T]?: SourcePos };
}

/** The decoded value when every field decoded. */
export function complete<T>(d: Decoded<T>): T | Invalid {
  // Every required field is present and every defaulted one filled, so the partial value is whole.
  return d.ok ? (d.value as T) : INVALID;
}

/**
 * Decodes every field of `fields` from `map`, reporting each unknown key, missing key and bad value.
 * `where` names the map in messages ("grant step"); `alsoAllowed` are keys the caller handles itself.
 */
export function decodeFields<T>(
  fields: FieldsFor<T>,
  map: FieldMap,
  where: string,
  ctx: ParseContext,
  alsoAllowed: readonly string[] = [],
): Decoded<T> {
  const specs = Object.entries(fields) as [string, AnyField][];
  const known = [...specs.map(([, f]) => f.key), ...alsoAllowed];
  const given = new Map<string, PNode>();
  let ok = true;
  for (const e of map.entries) {
    given.set(e.key, e.value);
    if (!known.includes(e.key)) {
      ok = false;
      ctx.error(
        e.keyPos,
        `unknown key ${quote(e.key)} in ${where}; expected one of: ${known.join(', ')}${didYouMean(e.key, known)}`,
      );
    }
  }
  const value: Record<string, unknown> = {};
  const posOf: Record<string, SourcePos> = {};
  for (const [prop, f] of specs) {
    const node = given.get(f.key);
    if (node === undefined) {
      if (f.presence === 'default') value[prop] = f.default;
      if (f.presence === 'required') {
        ok = false;
        ctx.error(map.pos, `missing required key "${f.key}" in ${where}: ${f.description}`);
      }
      continue;
    }
    posOf[prop] = node.pos;
    const v = f.codec.decode(node, ctx);
    if (v === INVALID) ok = false;
    else value[prop] = v;
  }
  return { ok, value: value as Partial<T>, pos: map.pos, posOf: posOf as Decoded<T>['posOf'] };
}

/** JSON Schema of one field, with its description and (in YAML form) its default. */
export function fieldSchema(f: AnyField): JsonSchema {
  const schema: Record<string, unknown> = { ...f.codec.schema, description: f.description };
  if (f.presence === 'default') {
    const value = f.codec.encode ? f.codec.encode(f.default) : f.default;
    if (value !== undefined) schema.default = value;
  }
  return schema;
}

/** JSON Schema of a closed map decoded by `fields`. */
export function objectSchema(fields: object, description?: string): JsonSchema {
  const list = fieldList(fields);
  const required = list.filter((f) => f.presence === 'required').map((f) => f.key);
  return {
    type: 'object',
    ...(description === undefined ? {} : { description }),
    properties: Object.fromEntries(list.map((f) => [f.key, fieldSchema(f)])),
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
  };
}
