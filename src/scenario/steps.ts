/**
 * The `steps` list. A step is a map with exactly one action key. Its other keys (`at` and the action's
 * fields) may sit inside the action's map — `{ at: 1s, grant: { lease: L, ttl: 10 } }` — or beside the
 * action key — `{ at: 1s, grant: { lease: L }, ttl: 10, via: n2 }` — since the format is read both ways;
 * each key at most once. Steps are checked in file order, so names must be introduced before use.
 */
import type { Micros } from '../clock/time.js';
import { defineAnswer } from './answer-form.js';
import { txnOpSchema } from './kinds/txn-steps.js';
import { txnOpAnswerSchema } from './txn-answer-form.js';
import { ASSERTION_KEYS, assertionFieldSchemas, assertionSchema, decodeAssertion } from './assertion-forms.js';
import { INVALID, mismatch, type Codec, type Invalid, type JsonSchema } from './codec.js';
import { duration } from './codecs.js';
import type { ParseContext } from './context.js';
import { formatDuration } from './duration.js';
import {
  complete,
  decodeFields,
  fieldKeys,
  fieldList,
  fieldSchema,
  req,
  type FieldMap,
  type FieldsFor,
} from './fields.js';
import { quote, type PEntry, type PMap, type PNode } from './node.js';
import { STEP_KINDS, type FieldKind, type KindSpec } from './step-kinds.js';
import { closest } from './suggest.js';
import type { Assertion, SourcePos, Step, StepKind } from './types.js';

const AT: FieldsFor<{ atUs: Micros }> = {
  atUs: req('at', duration(), 'Virtual time since the start at which the step runs, e.g. 1m30s.'),
};
const EXPECT_DESCRIPTION =
  'Fails the scenario (and the CLI exit code) when the assertion ' +
  'is false. Runs after every other event due at the same instant.';

export const STEP_KIND_NAMES: readonly StepKind[] = [...(Object.keys(STEP_KINDS) as FieldKind[]), 'expect'];

/** The keys a kind accepts besides its action key, `at` last (as messages list them). */
function keysOf(kind: StepKind): string[] {
  return [...(kind === 'expect' ? ASSERTION_KEYS : fieldKeys(STEP_KINDS[kind].fields)), 'at'];
}

const isKind = (k: string): k is StepKind => (STEP_KIND_NAMES as readonly string[]).includes(k);

export const steps: Codec<Step[]> = {
  expected: 'a list of steps',
  schema: { type: 'array', items: { $ref: '#/$defs/step' } },
  decode(node, ctx) {
    if (node.kind !== 'seq') return mismatch(ctx, node, 'a list of steps');
    const out: Step[] = [];
    let ok = true;
    let previous: { atUs: Micros; pos: SourcePos } | undefined;
    for (const item of node.items) {
      const { step, at } = decodeStep(item, ctx);
      // Time order is checked even for a step with a bad body, so both mistakes are reported at once.
      if (at && previous && at.atUs < previous.atUs) {
        ok = false;
        ctx.error(
          at.pos,
          `step at ${formatDuration(at.atUs)} comes after a step at ` +
            `${formatDuration(previous.atUs)} (line ${previous.pos.line}); steps must be in time order`,
        );
      }
      if (at) previous = at;
      if (step === INVALID) ok = false;
      else out.push(step);
    }
    return ok ? out : INVALID;
  },
};

interface DecodedStep {
  readonly step: Step | Invalid;
  /** The step's time and where it is written, when `at` decoded. */
  readonly at?: { readonly atUs: Micros; readonly pos: SourcePos };
}

function decodeStep(item: PNode, ctx: ParseContext): DecodedStep {
  if (item.kind !== 'map')
    return { step: mismatch(ctx, item, 'a step: a map with "at" and one action such as "grant"') };
  const action = findAction(item, ctx);
  const fields = action === INVALID ? INVALID : mergeFields(item, action, ctx);
  if (action === INVALID || fields === INVALID) return { step: INVALID };
  const where = `${action.kind} step`;
  const atDecoded = decodeFields(
    AT,
    { entries: fields.entries.filter((e) => e.key === 'at'), pos: fields.pos },
    where,
    ctx,
  );
  const atUs = complete(atDecoded);
  const at = atUs === INVALID ? undefined : { atUs: atUs.atUs, pos: atDecoded.posOf.atUs ?? item.pos };
  const rest = { entries: fields.entries.filter((e) => e.key !== 'at'), pos: fields.pos };
  const body = action.kind === 'expect' ? expectBody(rest, ctx) : kindBody(action.kind, rest, where, ctx);
  if (!at || body === INVALID) return { step: INVALID, at };
  // The table's field types are the kind's model type, so adding kind, time and position makes that Step.
  return { step: { kind: action.kind, atUs: at.atUs, pos: item.pos, ...body } as Step, at };
}

function expectBody(map: FieldMap, ctx: ParseContext): { assertion: Assertion } | Invalid {
  const assertion = decodeAssertion(map, ctx, ['at']);
  return assertion === INVALID ? INVALID : { assertion };
}

function kindBody(kind: FieldKind, map: FieldMap, where: string, ctx: ParseContext): object | Invalid {
  // Each entry's model type is StepFields<K> for its own K; widening to one spec type is how a table is walked.
  const spec = STEP_KINDS[kind] as KindSpec<object>;
  const d = decodeFields<object>(spec.fields, map, where, ctx, ['at']);
  const checked = spec.check ? spec.check(d, ctx) : true;
  // A kind with an `as` field names its answer; the name is registered even when a sibling field is bad.
  const named = 'as' in spec.fields ? defineAnswer(kind, d, ctx) : true;
  return checked && named ? complete(d) : INVALID;
}

interface Action {
  readonly kind: StepKind;
  readonly entry: PEntry;
}

function findAction(step: PMap, ctx: ParseContext): Action | Invalid {
  const named = step.entries.filter((e) => isKind(e.key));
  // `expect: {…}` beside `keepalive: L` is an expect whose field is keepalive, not two actions.
  const actions = named.filter((e) => !named.some((o) => o !== e && keysOf(o.key as StepKind).includes(e.key)));
  const [first, second] = actions;
  if (first && !second) return { kind: first.key as StepKind, entry: first };
  if (first && second) {
    ctx.error(
      second.keyPos,
      `step has more than one action (${actions.map((e) => e.key).join(', ')}); a step holds exactly one`,
    );
    return INVALID;
  }
  const expected = `expected one of: ${STEP_KIND_NAMES.join(', ')}`;
  const misspelt = step.entries.find((e) => e.key !== 'at' && closest(e.key, STEP_KIND_NAMES) !== undefined);
  if (misspelt) {
    const hint = closest(misspelt.key, STEP_KIND_NAMES) ?? '';
    ctx.error(misspelt.keyPos, `unknown action ${quote(misspelt.key)}; ${expected} (did you mean "${hint}"?)`);
  } else ctx.error(step.pos, `step has no action key; ${expected}`);
  return INVALID;
}

/** The step's keys other than the action, from beside the action key and inside its map. */
function mergeFields(step: PMap, action: Action, ctx: ParseContext): FieldMap | Invalid {
  const beside = step.entries.filter((e) => e !== action.entry);
  const inner = action.entry.value;
  if (inner.kind === 'scalar' && inner.value === null) return { entries: beside, pos: step.pos };
  if (inner.kind !== 'map') return mismatch(ctx, inner, `the ${action.kind} step's fields as a map (or nothing)`);
  let ok = true;
  for (const e of inner.entries) {
    const twin = beside.find((b) => b.key === e.key);
    if (twin) {
      ok = false;
      ctx.error(
        e.keyPos,
        `key ${quote(e.key)} is given twice: beside "${action.kind}" (line ${twin.keyPos.line}) and inside it`,
      );
    }
  }
  return ok ? { entries: [...beside, ...inner.entries], pos: inner.pos } : INVALID;
}

/** `$defs` for the schema: `step` (any kind), one `step-<kind>` per kind, and `assertion`. */
export function stepSchemaDefs(): Record<string, JsonSchema> {
  const at = { at: fieldSchema(AT.atUs) };
  const defs: Record<string, JsonSchema> = {};
  for (const kind of STEP_KIND_NAMES) {
    if (kind === 'expect') {
      const fields = { ...assertionFieldSchemas(), ...at };
      defs['step-expect'] = stepSchema(kind, EXPECT_DESCRIPTION, fields, { $ref: '#/$defs/assertion' }, ['at']);
      continue;
    }
    const spec = STEP_KINDS[kind] as KindSpec<object>;
    const all = fieldList({ ...spec.fields, ...AT });
    const fields = Object.fromEntries(all.map((f) => [f.key, fieldSchema(f)]));
    const inner = { type: 'object', properties: fields, additionalProperties: false };
    const mustHave = all.filter((f) => f.presence === 'required').map((f) => f.key);
    defs[`step-${kind}`] = stepSchema(kind, spec.description, fields, inner, mustHave);
  }
  defs.step = { anyOf: STEP_KIND_NAMES.map((k) => ({ $ref: `#/$defs/step-${k}` })) };
  defs.assertion = assertionSchema(at);
  defs['txn-op'] = txnOpSchema();
  defs['txn-op-answer'] = txnOpAnswerSchema();
  return defs;
}

/** The action key holds the fields (`inner`) or nothing; then the fields sit beside it. */
function stepSchema(
  kind: StepKind,
  description: string,
  fields: object,
  inner: JsonSchema,
  mustHave: readonly string[],
): JsonSchema {
  return {
    title: kind,
    description,
    type: 'object',
    properties: { [kind]: { anyOf: [{ type: 'null' }, inner] }, ...fields },
    required: [kind],
    additionalProperties: false,
    // A required key may be written beside the action key or inside its map.
    allOf: mustHave.map((k) => ({
      anyOf: [{ required: [k] }, { properties: { [kind]: { type: 'object', required: [k] } } }],
    })),
  };
}
