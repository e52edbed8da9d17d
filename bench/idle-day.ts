// Benchmark: a 3-member cluster left idle for 24 virtual hours (one lease granted and revoked at the
// start, an assertion at the end): what a long, quiet stretch of raft ticks and heartbeats costs.
import { MICROS_PER_SECOND } from '../src/clock/time.js';
import { parseScenario } from '../src/scenario/parse.js';
import { runScenario } from '../src/scenario/replay/runner.js';
import { report, type BenchResult } from './report.js';

const HOURS = Number(process.env.IDLE_HOURS ?? 24);

const SCENARIO = `
name: idle-day
steps:
  - { at: 0s, grant: { lease: L, ttl: 5 } }
  - { at: 0s, put: { key: /k, value: v, lease: L } }
  - { at: 1s, revoke: { lease: L } }
  - { at: ${HOURS}h, expect: { key: /k, exists: false } }
`;

export function idleDay(): BenchResult[] {
  const parsed = parseScenario(SCENARIO, 'idle-day.yaml');
  if (!parsed.ok) throw new Error(`idle-day scenario: ${parsed.errors.map((e) => e.message).join('; ')}`);
  let events = (): number => 0;
  const t0 = performance.now();
  // Traced and hashed, as `lessor-sim run` replays it.
  const r = runScenario(parsed.scenario, { onCluster: (c) => (events = () => c.sched.eventsExecuted) });
  const wall = (performance.now() - t0) / 1000;
  const virtualS = parsed.scenario.durationUs / MICROS_PER_SECOND;
  return [
    report('idle-day', {
      'virtual h': HOURS,
      passed: String(r.passed),
      'wall s': wall.toFixed(2),
      events: events(),
      'events per virtual s': Math.round(events() / virtualS),
      'events/s': Math.round(events() / wall),
      'trace events': r.trace.length,
    }),
  ];
}
