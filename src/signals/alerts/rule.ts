/** Prometheus-style alerting rules as a scenario carries them (one rule group). */
import type { Micros } from '../../clock/time.js';
import type { Expr } from '../promql/ast.js';

export interface AlertRule {
  readonly name: string;
  /** The expression as written, for the promtool rules file. */
  readonly exprText: string;
  readonly expr: Expr;
  readonly forUs: Micros;
  readonly labels: Readonly<Record<string, string>>;
}

export interface AlertGroup {
  /** The rule group's evaluation interval. */
  readonly intervalUs: Micros;
  /** How often every target is scraped. */
  readonly scrapeIntervalUs: Micros;
  readonly rules: readonly AlertRule[];
}
