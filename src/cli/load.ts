import { MAX_INPUT_BYTES } from '../scenario/load-yaml.js';
import { formatError, parseScenario } from '../scenario/parse.js';
import { readBounded } from './read-bounded.js';
import type { Scenario, ScenarioError } from '../scenario/types.js';

export type Loaded =
  | { readonly ok: true; readonly scenario: Scenario }
  | { readonly ok: false; readonly messages: readonly string[]; readonly errors: readonly ScenarioError[] };

/** Reads and validates one scenario file; every problem becomes a `file:line:col: message` line. */
export function loadScenario(file: string, knownBugs: readonly string[]): Loaded {
  const read = readBounded(file, MAX_INPUT_BYTES, 'a scenario file (1 MiB)');
  if (!read.ok) {
    const { message } = read;
    // Line 0: the problem is the file itself, not a place in it.
    return { ok: false, messages: [`${file}: ${message}`], errors: [{ file, line: 0, col: 0, message }] };
  }
  const p = parseScenario(read.text, file, { knownBugs });
  return p.ok
    ? { ok: true, scenario: p.scenario }
    : { ok: false, messages: p.errors.map(formatError), errors: p.errors };
}
