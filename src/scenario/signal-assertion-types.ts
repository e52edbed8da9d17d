/** The assertion forms on signals: an alert firing at an instant, its lead over a loss, a metric's value. */
import type { Micros } from '../clock/time.js';
import type { Selector } from '../signals/promql/ast.js';
import type { IntRange, SourcePos } from './types.js';

interface SignalAssertionBase<F extends string> {
  readonly form: F;
  readonly pos: SourcePos;
}

/** Some instance of the alert is firing (or none is) at the expect's instant. */
export interface AlertFiringAssertion extends SignalAssertionBase<'alert-firing'> {
  readonly alert: string;
  readonly firing: boolean;
}

/** The alert first fired at least `leadUs` before the key was first deleted (by revoke or delete). */
export interface AlertLeadAssertion extends SignalAssertionBase<'alert-lead'> {
  readonly alert: string;
  readonly key: string;
  readonly leadUs: Micros;
}

/** The sum of the series a selector picks, at the expect's instant, within bounds. */
export interface MetricValueAssertion extends SignalAssertionBase<'metric-value'> {
  readonly metric: { readonly text: string; readonly selector: Selector };
  readonly value: IntRange;
}

export type SignalAssertion = AlertFiringAssertion | AlertLeadAssertion | MetricValueAssertion;
