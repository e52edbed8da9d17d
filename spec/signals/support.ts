/** Helpers for signal tests: replay a library scenario, record its signals, find promtool. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario, type RunResult, type RunOptions } from '../../src/scenario/replay/runner.js';
import { recordSignals, type Signals } from '../../src/signals/recorder.js';

export const ROOT = resolve(__dirname, '../..');

export function replay(file: string, opts: RunOptions = {}): RunResult {
  const p = parseScenario(readFileSync(join(ROOT, file), 'utf8'), file, { knownBugs: BUG_NAMES });
  if (!p.ok) throw new Error(`${file} does not parse: ${JSON.stringify(p.errors)}`);
  return runScenario(p.scenario, opts);
}

export function signalsOf(r: RunResult): Signals {
  return recordSignals(r.trace.events, r.scenario.durationUs);
}

/** The value of the one series named `name` with exactly these labels, at `t`. */
export function seriesValue(
  s: Signals,
  name: string,
  labels: Record<string, string>,
  t: number,
): number | null | undefined {
  const found = s.store.series.find(
    (x) =>
      x.name === name &&
      JSON.stringify(Object.entries(x.labels).sort()) === JSON.stringify(Object.entries(labels).sort()),
  );
  if (found === undefined) throw new Error(`no series ${name}${JSON.stringify(labels)}`);
  let v: number | null | undefined;
  for (const p of found.points) if (p.t <= t) v = p.v;
  return v;
}

export const PROMTOOL = '/usr/bin/promtool';
export const HAVE_PROMTOOL = existsSync(PROMTOOL);
if (!HAVE_PROMTOOL)
  console.warn(`skipping the promtool checks: ${PROMTOOL} is missing (Debian: apt-get install prometheus)`);

/** promtool's exit status and output. */
export function promtool(args: readonly string[], input?: string, cwd?: string): { code: number; out: string } {
  try {
    const out = execFileSync(PROMTOOL, args, { input, cwd, encoding: 'utf8', stdio: ['pipe', 'pipe', 'pipe'] });
    return { code: 0, out };
  } catch (e) {
    const err = e as { status: number; stdout: string; stderr: string };
    return { code: err.status, out: `${err.stdout}${err.stderr}` };
  }
}
