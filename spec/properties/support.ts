/** Helpers for property-toolkit tests: scenarios from text, and runs judged by the monitors. */
import { checkScenario, type CheckVerdict } from '../../src/properties/index.js';
import { parseScenario } from '../../src/scenario/parse.js';
import type { Scenario } from '../../src/scenario/types.js';

/** A scenario from its steps (flow maps, one per line) and optional top-level lines. */
export function scenario(head: readonly string[], steps: readonly string[]): Scenario {
  const text = ['name: t', ...head, 'steps:', ...steps.map((s) => `  - ${s}`)].join('\n');
  const p = parseScenario(`${text}\n`, 't.yaml');
  if (!p.ok)
    throw new Error(`scenario does not parse: ${p.errors.map((e) => `${e.line}:${e.col} ${e.message}`).join('; ')}`);
  return p.scenario;
}

export function judge(head: readonly string[], steps: readonly string[]): CheckVerdict {
  return checkScenario(scenario(head, steps));
}

/** `head` with a bug switched on. */
export const withBug = (bug: string, head: readonly string[] = []): string[] => [`bugs: [${bug}]`, ...head];
