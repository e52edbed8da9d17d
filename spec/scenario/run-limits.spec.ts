import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { seconds } from '../../src/clock/time.js';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { parseScenario } from '../../src/scenario/parse.js';
import {
  EVENTS_PER_BATCH_LEASE,
  livelockThresholdOf,
  MAX_EVENTS_AT_ONE_INSTANT,
} from '../../src/scenario/replay/livelock.js';
import { runScenario } from '../../src/scenario/replay/runner.js';
import type { Scenario } from '../../src/scenario/types.js';
import { Trace } from '../../src/trace/trace.js';

function library(file: string): Scenario {
  const r = parseScenario(readFileSync(file, 'utf8'), file, { knownBugs: BUG_NAMES });
  if (!r.ok) throw new Error(`${file} does not parse`);
  return r.scenario;
}

const RUNBOOK = library('scenarios/seed-runbook.yaml');

describe('replay limits', () => {
  it('ends a replay that passes its event budget, with the events and time reached, and fails it', () => {
    const full = runScenario(RUNBOOK);
    let events = (): number => 0;
    const r = runScenario(RUNBOOK, {
      guard: { maxEvents: 2000 },
      onCluster: (c) => (events = () => c.sched.eventsExecuted),
    });
    expect(full.stopped).toBeUndefined();
    expect(r.stopped?.reason).toBe('max-events');
    expect(r.stopped?.events).toBe(2000);
    expect(events()).toBe(2000);
    expect(r.stopped!.atUs).toBe(r.cluster!.now());
    expect(r.stopped!.atUs).toBeLessThan(RUNBOOK.durationUs);
    expect(r.passed).toBe(false);
    // Only the assertions due before the stop were evaluated, and as in the full run.
    expect(r.assertions.length).toBeLessThan(full.assertions.length);
    expect(r.assertions.every((a) => a.atUs <= r.stopped!.atUs)).toBe(true);
    expect(r.assertions.map((a) => a.passed)).toEqual(
      full.assertions.slice(0, r.assertions.length).map((a) => a.passed),
    );
  });

  it('stops when the poll hook gives a reason, and a hook that never does changes nothing in the trace', () => {
    const stopped = runScenario(RUNBOOK, {
      guard: { pollEvery: 500, poll: (now) => (now >= seconds(5) ? 'timed out after 1 s of wall time' : undefined) },
    });
    expect(stopped.stopped?.reason).toBe('poll');
    expect(stopped.stopped?.message).toBe('timed out after 1 s of wall time');
    expect(stopped.stopped!.atUs).toBeGreaterThanOrEqual(seconds(5));
    let polls = 0;
    const watched = runScenario(RUNBOOK, {
      guard: {
        pollEvery: 100,
        poll: () => {
          polls++;
          return undefined;
        },
      },
    });
    expect(polls).toBeGreaterThan(10);
    expect(watched.stopped).toBeUndefined();
    expect(watched.trace.hash()).toBe(runScenario(RUNBOOK).trace.hash());
  });

  it('ends a livelocked replay with an error naming the instant and the event kinds spinning there', () => {
    const trace = new Trace();
    const r = runScenario(RUNBOOK, {
      trace,
      guard: { maxEventsAtOneInstant: 10_000 },
      onCluster: (c) => {
        c.sched.at(seconds(2), function spin() {
          trace.emit({ t: c.sched.now(), member: 'n2', kind: 'member-resume', fields: { order: 'timers-first' } });
          c.sched.after(0, spin);
        });
      },
    });
    expect(r.stopped?.reason).toBe('livelock');
    expect(r.stopped?.atUs).toBe(seconds(2));
    expect(r.stopped?.message).toMatch(
      new RegExp(
        String.raw`^livelock: more than 10000 events at one virtual instant \(2\.000000 s\); event ` +
          String.raw`kinds there: n2 member-resume ×\d+`,
      ),
    );
    expect(r.passed).toBe(false);
  });

  it('guards every replay against a livelock by default', () => {
    const r = runScenario(RUNBOOK, {
      trace: new Trace(false),
      onCluster: (c) =>
        c.sched.at(seconds(3), function spin() {
          c.sched.after(0, spin);
        }),
    });
    expect(r.stopped?.reason).toBe('livelock');
    expect(r.stopped?.message).toContain('1000000 events');
    expect(r.stopped?.message).toContain('the trace is off');
  });

  it(
    'raises the livelock threshold by 16 events per grant-many ' +
      'lease: a batch granted at one instant is not a livelock',
    () => {
      const text =
        'name: batch\ncluster: { latency: 0s }\nsteps:\n  - { at: 0s, grant-many: { prefix: ' +
        'P, count: 20000, ttl: 5 } }\n  - { at: 10s, expect: { key: /k, exists: false } }\n';
      const batch = parseScenario(text, 'batch.yaml');
      if (!batch.ok) throw new Error('batch.yaml does not parse');
      expect(livelockThresholdOf(RUNBOOK)).toBe(MAX_EVENTS_AT_ONE_INSTANT);
      expect(livelockThresholdOf(batch.scenario)).toBe(MAX_EVENTS_AT_ONE_INSTANT + 20_000 * EVENTS_PER_BATCH_LEASE);
      // With no network delay the whole batch (about 11 events a lease) happens at time 0: within 16 a
      // lease it runs to its end; at 8 a lease the same instant would be taken for a livelock.
      expect(
        runScenario(batch.scenario, { guard: { maxEventsAtOneInstant: 20_000 * EVENTS_PER_BATCH_LEASE } }).stopped,
      ).toBeUndefined();
      const tight = runScenario(batch.scenario, { guard: { maxEventsAtOneInstant: 20_000 * 8 } });
      expect([tight.stopped?.reason, tight.stopped?.atUs]).toEqual(['livelock', 0]);
    },
  );
});
