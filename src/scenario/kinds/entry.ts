/**
 * The shape of one step kind's entry in the scenario layer's step table (step-kinds.ts): everything the
 * scenario layer knows about the kind, in one place. The real-etcd driver keeps its own table, keyed the
 * same way, in real-etcd/real-steps.ts.
 */
import type { Micros } from '../../clock/time.js';
import type { ParseContext } from '../context.js';
import type { Decoded, FieldsFor } from '../fields.js';
import type { StepReplay } from '../replay/step-replay.js';
import type { Step, StepKind } from '../types.js';

/** Every kind but `expect`, whose fields are an assertion form (assertion-forms.ts). */
export type FieldKind = Exclude<StepKind, 'expect'>;
export type StepOf<K extends StepKind> = Extract<Step, { kind: K }>;
export type StepFields<K extends StepKind> = Omit<StepOf<K>, 'kind' | 'atUs' | 'pos'>;

/** The codec half: the kind's fields as the parser and the JSON Schema read them. */
export interface KindSpec<T> {
  readonly description: string;
  readonly fields: FieldsFor<T>;
  /**
   * Cross-field rules, and the names the step introduces for later steps. Runs in file order even when a
   * field is bad (values are partial then), so one mistake does not cascade; reports its own errors.
   */
  readonly check?: (step: Decoded<T>, ctx: ParseContext) => boolean;
}

export interface StepKindEntry<K extends FieldKind> extends KindSpec<StepFields<K>> {
  /** The step in words, as the narrated timeline shows it. */
  readonly describe: (s: StepOf<K>) => string;
  /** When the step's last scheduled action happens, when that is after its `at` (spread grants, timed pauses). */
  readonly endUs?: (s: StepOf<K>) => Micros;
  /** How the simulation performs it, at its `at`. */
  readonly perform: (s: StepOf<K>, r: StepReplay) => void;
}

/** A group of entries; step-kinds.ts joins the groups and the compiler checks every kind has one. */
export type StepKindEntries<K extends FieldKind> = { readonly [P in K]: StepKindEntry<P> };
