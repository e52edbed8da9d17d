// The scenario library: every file replays, passes, and gives the same trace hash in a separate process.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';

const ROOT = resolve(__dirname, '../..');
const dirs = ['scenarios', 'scenarios/bugs', 'scenarios/signals'];
const files = dirs.flatMap((d) => {
  try {
    return readdirSync(join(ROOT, d))
      .filter((f) => f.endsWith('.yaml') || f.endsWith('.json'))
      .map((f) => join(d, f));
  } catch {
    return [];
  }
});

function replay(file: string) {
  const p = parseScenario(readFileSync(join(ROOT, file), 'utf8'), file, { knownBugs: BUG_NAMES });
  if (!p.ok) throw new Error(`${file} does not parse: ${JSON.stringify(p.errors)}`);
  return runScenario(p.scenario);
}

describe('scenario library', () => {
  it('has scenarios', () => {
    expect(files.length).toBeGreaterThan(0);
  });

  it.each(files)('%s replays with every assertion passing', (file) => {
    const r = replay(file);
    const failing = r.assertions.filter((a) => !a.passed);
    const failed = failing.map((a) => `line ${a.step.pos.line}: ${a.text} — got ${a.got}`);
    expect(r.setupError).toBeUndefined();
    expect(failed).toEqual([]);
    expect(r.assertions.length).toBeGreaterThan(0);
  });

  it('gives the same trace hash in a separate process as in this one, for every file', () => {
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'src/cli/main.ts'), 'run', '--json', ...files],
      { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 },
    );
    const remote = JSON.parse(out) as Array<{ file: string; traceHash: string }>;
    expect(remote.map((r) => r.file)).toEqual(files);
    for (const r of remote) expect(r.traceHash, r.file).toBe(replay(r.file).trace.hash());
  });
});
