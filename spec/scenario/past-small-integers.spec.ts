// A run that crosses 2,147 virtual seconds (2^31 µs, where the scheduler's inside count of time and a plain
// µs timestamp part ways: clock/queue-time.ts) prints the trace it printed before that count existed.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';
import { BUG_NAMES } from '../../src/switches/bugs.js';

const ROOT = resolve(__dirname, '../..');
const FILE = 'scenarios/bugs/e1-wall-clock-jump-delays-expiry.buggy.yaml';
/** Its hash before the scheduler counted from -2^31 µs (main at c2dc8d9). */
const HASH = '27ab45fc5b749e3ff03e4c2b3e9659514073cebdc9fe96a7ee7ad633f1af2941';

describe('a run past 2,147 virtual seconds', () => {
  it(`${FILE} keeps its trace, with its lines past 2^31 µs`, () => {
    const p = parseScenario(readFileSync(join(ROOT, FILE), 'utf8'), FILE, { knownBugs: BUG_NAMES });
    if (!p.ok) throw new Error(`${FILE} does not parse: ${JSON.stringify(p.errors)}`);
    const r = runScenario(p.scenario);
    expect(r.trace.hash()).toBe(HASH);
    const late = r.trace.lines().filter((_, i) => r.trace.events[i]!.t > 2 ** 31);
    expect(late.length).toBeGreaterThan(0);
    expect(late.some((l) => l.startsWith('3610.50'))).toBe(true);
  });
});
