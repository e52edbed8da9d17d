// The monitors' findings are pinned: every library scenario and the campaign bench's 300 generated runs are judged
// by every property, and each violation (property, trace line, time, message and proposed expects) must
// equal the fixture written by the monitors as they were before they were made cheaper (issue 29). A
// change that makes judging faster keeps this file; one that changes what is found rewrites the fixture
// (LESSOR_SIM_WRITE_VERDICTS=1) and says why in its commit.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loadScenario } from '../../src/cli/load.js';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import {
  checkScenario,
  draftRun,
  draftScenario,
  faultCommands,
  setupArb,
  weighted,
  workloadCommands,
  type CheckVerdict,
} from '../../src/properties/index.js';
import { formatEvent } from '../../src/trace/trace.js';

const FIXTURE = join(import.meta.dirname, 'fixtures', 'monitor-verdicts.txt');
const SEED = 1;
const RUNS = 300;

/** One line per violation: what a reader of a finding sees, its expects as JSON. */
function lines(name: string, v: CheckVerdict): string[] {
  if (v.stopped !== undefined) return [`${name} stopped ${v.stopped.reason}`];
  return v.violations.map(
    (x) =>
      `${name} ${x.property} line=${x.traceLine} at=${x.atUs} event=${formatEvent(x.event)} ` +
      `message=${x.message} expects=${JSON.stringify(x.expects, (_, y) => (typeof y === 'bigint' ? `${y}n` : y))}`,
  );
}

function libraryFiles(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((f) => {
      const p = join(dir, f);
      return statSync(p).isDirectory() ? libraryFiles(p) : f.endsWith('.yaml') ? [p] : [];
    });
}

function judgeAll(): string[] {
  const out: string[] = [];
  for (const file of libraryFiles('scenarios')) {
    const l = loadScenario(file, BUG_NAMES);
    if (!l.ok) throw new Error(l.messages.join('\n'));
    out.push(...lines(file, checkScenario(l.scenario)));
  }
  const command = weighted([...workloadCommands(), ...faultCommands()]);
  const arb = fc.record({
    setup: setupArb({ members: [3] }),
    commands: fc.array(command, { minLength: 50, maxLength: 50 }),
  });
  fc.sample(arb, { seed: SEED, numRuns: RUNS }).forEach((r, k) => {
    const d = draftRun({ ...r, tailUs: 8_000_000 });
    const s = draftScenario(r.setup, d.steps, d.durationUs, { name: `run${k}`, file: `run${k}.yaml` });
    out.push(...lines(`seed ${SEED} run ${k}`, checkScenario(s)));
  });
  return out;
}

describe('monitor verdicts', () => {
  it(`equal the pinned findings on the library and ${RUNS} generated runs (seed ${SEED})`, () => {
    const found = judgeAll();
    if (process.env.LESSOR_SIM_WRITE_VERDICTS === '1') writeFileSync(FIXTURE, `${found.join('\n')}\n`);
    const pinned = readFileSync(FIXTURE, 'utf8').trimEnd().split('\n');
    // The campaign must find something, or the comparison would prove little.
    expect(found.filter((l) => l.startsWith('seed')).length).toBeGreaterThan(0);
    expect(found).toEqual(pinned);
  }, 300_000);
});
