/**
 * The step table: one entry per action kind, holding everything the scenario layer knows about it — its
 * fields (key, type, presence, default, description) for the parser and the JSON Schema, its cross-field
 * rules, how the narrated timeline words it, when its last action happens, and how the simulation
 * performs it. The entries live in kinds/, grouped by theme. Adding a kind is a model type in types.ts
 * and one entry in a group; the mapped type below makes the compiler demand it. The real-etcd driver's
 * table (real-etcd/real-steps.ts) is keyed the same way. `expect` is the exception: its fields are
 * an assertion form, tabled in assertion-forms.ts.
 */
import type { Micros } from '../clock/time.js';
import type { FieldKind, StepKindEntries, StepKindEntry } from './kinds/entry.js';
import { CLIENT_STEPS } from './kinds/client-steps.js';
import { FAULT_STEPS } from './kinds/fault-steps.js';
import { LEASE_EXTENSION_STEPS } from './kinds/lease-extension-steps.js';
import { LEASE_STEPS } from './kinds/lease-steps.js';
import { HOLDER_STEPS } from './kinds/holder-steps.js';
import { LOCK_STEPS } from './kinds/lock-steps.js';
import { SESSION_STEPS } from './kinds/session-steps.js';
import { ELECTION_STEPS } from './kinds/election-steps.js';
import { TXN_STEPS } from './kinds/txn-steps.js';
import type { Step } from './types.js';

export type { FieldKind, KindSpec, StepOf } from './kinds/entry.js';

/** In the order messages and the schema list the kinds. */
export const STEP_KINDS: StepKindEntries<FieldKind> = {
  ...LEASE_STEPS,
  ...FAULT_STEPS,
  ...LEASE_EXTENSION_STEPS,
  ...SESSION_STEPS,
  ...LOCK_STEPS,
  ...ELECTION_STEPS,
  ...HOLDER_STEPS,
  ...CLIENT_STEPS,
  ...TXN_STEPS,
};

/**
 * The entry of a kind. For a step of several possible kinds the entry's functions take any of them:
 * called as `stepEntry(s.kind).perform(s, …)` the step always matches its own entry.
 */
export function stepEntry<K extends FieldKind>(kind: K): StepKindEntry<K> {
  return STEP_KINDS[kind];
}

/** A step in words, as the timeline shows it. */
export function describeStep(s: Step): string {
  return s.kind === 'expect' ? 'expect' : stepEntry(s.kind).describe(s);
}

/** When the step's last scheduled action happens: its time, or later for spread grants and timed pauses. */
export function stepEndUs(s: Step): Micros {
  if (s.kind === 'expect') return s.atUs;
  return stepEntry(s.kind).endUs?.(s) ?? s.atUs;
}
