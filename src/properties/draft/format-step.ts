/**
 * A scenario step back to the text of a scenario file: the inverse of the parser for every step the
 * property toolkit generates. Field names come from the parser's own tables (STEP_KINDS,
 * ASSERTION_FORMS), so a renamed key cannot drift apart from what `lessor-sim run` accepts.
 */
import { ASSERTION_FORMS } from '../../scenario/assertion-forms.js';
import { formatDuration } from '../../scenario/duration.js';
import type { fieldList } from '../../scenario/fields.js';
import { txnYaml } from '../../scenario/kinds/txn-steps.js';
import { STEP_KINDS } from '../../scenario/step-kinds.js';
import type { Micros } from '../../clock/time.js';
import type { Assertion, ExpectStep, Step } from '../../scenario/types.js';
import { flowMap, yamlDuration, type YamlValue } from './yaml-text.js';

/** An assertion before it has a place in a file. */
export type DraftAssertion = Assertion extends infer A ? (A extends Assertion ? Omit<A, 'pos'> : never) : never;
type ActionStep = Exclude<Step, ExpectStep>;
/** A step before it has a place in a file. */
export type DraftStep =
  | (ActionStep extends infer S ? (S extends ActionStep ? Omit<S, 'pos'> : never) : never)
  | { readonly kind: 'expect'; readonly atUs: Micros; readonly assertion: DraftAssertion };

/** Model properties that hold durations end in `Us` (types.ts); they print as `1.5s`, `250ms`. */
const isDurationProp = (prop: string): boolean => prop.endsWith('Us');

function fieldEntries(
  fields: object,
  value: Record<string, unknown>,
  skip: ReadonlySet<string>,
): [string, YamlValue | undefined][] {
  const out: [string, YamlValue | undefined][] = [];
  for (const [prop, f] of Object.entries(fields) as [string, ReturnType<typeof fieldList>[number]][]) {
    if (skip.has(prop)) continue;
    const v = value[prop];
    if (v === undefined) continue;
    out.push([f.key, isDurationProp(prop) ? yamlDuration(formatDuration(v as number)) : (v as YamlValue)]);
  }
  return out;
}

const NONE = new Set<string>();
const TXN_LISTS = new Set(['compare', 'success', 'failure']);

/** The assertion as the flow map after `expect:`. */
export function formatAssertion(a: DraftAssertion): string {
  const fields = ASSERTION_FORMS[a.form].fields;
  const v = a as unknown as Record<string, unknown>;
  if (a.form === 'leases-count') {
    return flowMap([
      ['leases', { count: a.count }],
      ['via', a.via],
    ]);
  }
  return flowMap(fieldEntries(fields, v, NONE));
}

/** The action line of a step without its `at`: `grant: { lease: L1, ttl: 5 }`. */
export function formatAction(s: DraftStep): string {
  if (s.kind === 'expect') return `expect: ${formatAssertion(s.assertion)}`;
  if (s.kind === 'txn') {
    // Ops and compares nest under their own YAML keys, which the step's field table does not list.
    const rest = fieldEntries(STEP_KINDS.txn.fields, s as unknown as Record<string, unknown>, TXN_LISTS);
    return `txn: ${flowMap([...Object.entries(txnYaml(s)), ...rest])}`;
  }
  const fields = STEP_KINDS[s.kind].fields;
  return `${s.kind}: ${flowMap(fieldEntries(fields, s as unknown as Record<string, unknown>, NONE))}`;
}

/**
 * The step as one flow map, `{ at: 1.5s, grant: { lease: L1, ttl: 5 } }`: an item of `steps: [...]`.
 * fast-check joins a command sequence with commas, so a reported sequence is such a list's contents.
 */
export function formatStepFlow(s: DraftStep): string {
  return `{ at: ${yamlDuration(formatDuration(s.atUs)).text}, ${formatAction(s)} }`;
}

/**
 * The step as two lines of a `steps:` list, unindented:
 *
 *     - at: 1.5s
 *       grant: { lease: L1, ttl: 5 }
 */
export function formatStep(s: DraftStep): string {
  return `- at: ${yamlDuration(formatDuration(s.atUs)).text}\n  ${formatAction(s)}`;
}
