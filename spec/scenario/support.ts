/** Helpers for scenario parser tests: files written line by line, so line numbers are easy to read off. */
import { expect } from 'vitest';
import { formatError, parseScenario, type ParseOptions } from '../../src/scenario/parse.js';
import type { Scenario, ScenarioError } from '../../src/scenario/types.js';

export const FILE = 'scenarios/test.yaml';

/** Joins lines with newlines: line N of the file is argument N. */
export const lines = (...ls: string[]): string => `${ls.join('\n')}\n`;

export function parsed(text: string, opts?: ParseOptions): Scenario {
  const r = parseScenario(text, FILE, opts);
  if (!r.ok) throw new Error(`expected the file to parse:\n${r.errors.map(formatError).join('\n')}`);
  return r.scenario;
}

export function errorsOf(text: string, opts?: ParseOptions): ScenarioError[] {
  const r = parseScenario(text, FILE, opts);
  if (r.ok) throw new Error('expected errors, but the file parsed');
  return [...r.errors];
}

/** The only error of a file that has exactly one. */
export function onlyError(text: string, opts?: ParseOptions): ScenarioError {
  const errors = errorsOf(text, opts);
  expect(errors.map(formatError)).toHaveLength(1);
  return errors[0] as ScenarioError;
}

/** A file whose steps are `steps` (each a YAML line, indented under `steps:`); steps begin on line 3. */
export const withSteps = (...steps: string[]): string => lines('name: t', 'steps:', ...steps.map((s) => `  ${s}`));
