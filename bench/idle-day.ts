// Benchmark: a 3-member cluster left idle for 24 virtual hours (one lease granted and revoked at the
// start, an assertion at the end): what a long, quiet stretch of raft ticks and heartbeats costs. A second,
// untimed run of one virtual hour splits its events by kind (messages by type, as a wire observer sees them;
// everything else is timers: raft ticks, each lessor's run loop, the leader monitor), to show what a fast
// path over quiet stretches could leave out.
import { MICROS_PER_SECOND } from '../src/clock/time.js';
import { parseScenario } from '../src/scenario/parse.js';
import { runScenario } from '../src/scenario/replay/runner.js';
import type { Scenario } from '../src/scenario/types.js';
import { cpuSeconds, report, type BenchResult } from './report.js';

const HOURS = Number(process.env.IDLE_HOURS ?? 24);

const scenarioText = (hours: number): string => `
name: idle-day
steps:
  - { at: 0s, grant: { lease: L, ttl: 5 } }
  - { at: 0s, put: { key: /k, value: v, lease: L } }
  - { at: 1s, revoke: { lease: L } }
  - { at: ${hours}h, expect: { key: /k, exists: false } }
`;

function idleScenario(hours: number): Scenario {
  const parsed = parseScenario(scenarioText(hours), 'idle-day.yaml');
  if (!parsed.ok) throw new Error(`idle-day scenario: ${parsed.errors.map((e) => e.message).join('; ')}`);
  return parsed.scenario;
}

export function idleDay(): BenchResult[] {
  const scenario = idleScenario(HOURS);
  let events = (): number => 0;
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  // Traced and hashed, as `lessor-sim run` replays it.
  const r = runScenario(scenario, { onCluster: (c) => (events = () => c.sched.eventsExecuted) });
  const wall = (performance.now() - t0) / 1000;
  const cpu = cpuSeconds(c0);
  const virtualS = scenario.durationUs / MICROS_PER_SECOND;
  report('idle-day events', eventsByKind(idleScenario(1)));
  return [
    report('idle-day', {
      'virtual h': HOURS,
      passed: String(r.passed),
      'wall s': wall.toFixed(2),
      events: events(),
      'events per virtual s': Math.round(events() / virtualS),
      'events/s': Math.round(events() / wall),
      'CPU s': cpu.toFixed(2),
      'events/CPU s': Math.round(events() / cpu),
      'trace events': r.trace.length,
    }),
  ];
}

/** Events of one virtual hour of the scenario, by kind, as shares of all events executed. */
function eventsByKind(scenario: Scenario): Record<string, string> {
  const sent = new Map<string, number>();
  let events = (): number => 0;
  runScenario(scenario, {
    onCluster: (c) => {
      events = () => c.sched.eventsExecuted;
      c.network.observer = {
        sent: (p, _at, arrives) => {
          if (arrives === undefined) return;
          const kind = p.label().kind;
          sent.set(kind, (sent.get(kind) ?? 0) + 1);
        },
      };
    },
  });
  const total = events();
  const share = (n: number): string => `${((100 * n) / total).toFixed(1)}%`;
  const out: Record<string, string> = { events: String(total) };
  let messages = 0;
  for (const [kind, n] of [...sent].sort((a, b) => b[1] - a[1])) {
    messages += n;
    if (n / total >= 0.001) out[kind] = share(n);
  }
  out['timers and the rest'] = share(total - messages);
  return out;
}
