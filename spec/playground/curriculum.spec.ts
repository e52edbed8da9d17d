// The topic lessons and the picture's side channel, without a browser: every lesson's instants fall in
// its run and every verdict is one of its choices; a verdict follows the run when the scenario changes;
// the observer leaves traces byte for byte as they are; descriptions reflow.
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { COURSE, courseLesson, revealTime, stepTime, verdictOf } from '../../src/playground/curriculum.js';
import { reflow } from '../../src/playground/narrated.js';
import { RunFacts } from '../../src/playground/run-facts.js';
import { Session } from '../../src/playground/session.js';
import { WireLog } from '../../src/playground/wire-log.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';

const ROOT = resolve(__dirname, '../..');

function facts(file: string, text = readFileSync(join(ROOT, file), 'utf8')): RunFacts {
  const o = Session.open(text, file);
  if (!o.ok) throw new Error(o.messages.join('\n'));
  return new RunFacts(o.session.fullResult(), o.session.wire);
}

describe('the course', () => {
  it('covers the seed documents by topic, each lesson with at least one prediction', () => {
    expect(new Set(COURSE.map((l) => l.topic)).size).toBe(3);
    expect(COURSE.length).toBeGreaterThanOrEqual(12);
    for (const l of COURSE)
      expect(
        l.steps.some((s) => s.predict !== undefined),
        l.id,
      ).toBe(true);
  });

  it.each(COURSE.map((l) => [l.id, l] as const))('%s: steps land in the run, verdicts are choices', (_id, l) => {
    expect(existsSync(join(ROOT, l.file))).toBe(true);
    const f = facts(l.file);
    let prev = 0;
    for (const step of l.steps) {
      // Every instant the lesson names is found in the run, not defaulted.
      const own = typeof step.at === 'function' ? step.at(f) : step.at;
      expect(own, `${l.id}: a step's instant`).toBeDefined();
      const t = stepTime(step, f, prev);
      expect(t).toBeGreaterThanOrEqual(0);
      expect(t).toBeLessThanOrEqual(f.result.scenario.durationUs);
      prev = t;
      if (step.predict === undefined) continue;
      expect(revealTime(step.predict, f, t)).toBeGreaterThanOrEqual(t);
      const o = step.predict.outcome(f);
      expect(o.choice).toBeGreaterThanOrEqual(0);
      expect(o.choice).toBeLessThan(step.predict.choices.length);
      const right = verdictOf(step.predict, f, o.choice);
      const wrong = verdictOf(step.predict, f, (o.choice + 1) % step.predict.choices.length);
      expect(right.held).toBe(true);
      expect(right.text).toMatch(/^Your prediction held/);
      expect(wrong.text).toMatch(/^Your prediction did not hold/);
    }
  });

  it('judges from the run: a client frozen for less than the TTL keeps its lock, and Step 5 says so', () => {
    const step = courseLesson('runbook-step5')!.steps.find((s) => s.predict !== undefined)!;
    const file = 'scenarios/seed-runbook.yaml';
    const text = readFileSync(join(ROOT, file), 'utf8');
    expect(step.predict!.outcome(facts(file, text)).choice).toBe(1);
    // The same lesson over a 5 s freeze (shorter than the 9 s TTL) and without the later assertions.
    const short = text.replace('pause: { client: c1, for: 12s }', 'pause: { client: c1, for: 5s }');
    expect(short).not.toBe(text);
    const o = step.predict!.outcome(facts(file, short));
    expect(o.choice).toBe(0);
    expect(o.because).toContain('still there at 22 s');
  });

  it('the forwarding lesson names the member the run renewed on', () => {
    const l = courseLesson('article-forwarding')!;
    const p = l.steps[0]!.predict!;
    const f = facts(l.file);
    const renew = f.first('lease-renew', { lease: 'L1', from: 1_000_000 })!;
    expect(renew.member).toBe('n1');
    expect(p.outcome(f).because).toContain(`renewed it at ${(renew.t / 1e6).toFixed(3)} s`);
  });
});

describe('the side channel', () => {
  it.each([
    'scenarios/seed-runbook.yaml',
    'scenarios/renew-forwarding.yaml',
    'scenarios/holders/fault4-frozen-leader.runbook.yaml',
    'scenarios/checkpoint-on-leader-change.yaml',
  ])('%s: the trace with an observer is byte for byte the trace without', (file) => {
    const p = parseScenario(readFileSync(join(ROOT, file), 'utf8'), file);
    if (!p.ok) throw new Error('does not parse');
    const wire = new WireLog();
    const watched = runScenario(p.scenario, { observer: wire });
    const plain = runScenario(p.scenario);
    expect(watched.trace.hash()).toBe(plain.trace.hash());
    expect(watched.trace.events.length).toBe(plain.trace.events.length);
    expect(wire.messages.length).toBeGreaterThan(100);
    // Every recorded arrival is after its send, and sends are in time order.
    for (let i = 1; i < wire.messages.length; i++)
      expect(wire.messages[i]!.sentUs).toBeGreaterThanOrEqual(wire.messages[i - 1]!.sentUs);
    expect(wire.messages.every((m) => m.arriveUs === undefined || m.arriveUs > m.sentUs)).toBe(true);
  });

  it('records the primary’s run-loop passes 500 ms apart', () => {
    const f = facts('scenarios/expiry-without-keepalive.yaml');
    expect(f.wire.lastPass('n1', 9_499_999)).toBe(9_000_000);
    expect(f.wire.lastPass('n1', 9_500_000)).toBe(9_500_000);
    expect(f.wire.lastPass('n2', 9_500_000)).toBeUndefined();
  });

  it('records raft’s election clocks: a follower campaigns the tick its elapsed ticks meet its timeout', () => {
    const f = facts('scenarios/promote-demote-timeline.yaml');
    const tick = 100_000;
    const electionTicks = 10;
    const campaigns = f.result.trace.events.filter(
      (e) => e.kind === 'raft-role' && e.t > 0 && (e.fields as { role?: string }).role === 'candidate',
    );
    expect(campaigns.length).toBeGreaterThan(0);
    for (const e of campaigns) {
      // One tick before, the clock stood one tick short of the timeout raft drew, in [10, 19] ticks.
      const before = f.wire.electionClockAt(e.member, e.t - 1)!;
      expect(before.t).toBe(e.t - tick);
      expect(before.elapsedTicks).toBe(before.timeoutTicks - 1);
      expect(before.timeoutTicks).toBeGreaterThanOrEqual(electionTicks);
      expect(before.timeoutTicks).toBeLessThan(2 * electionTicks);
      // A candidate draws again: its new clock starts at 0.
      expect(f.wire.electionClockAt(e.member, e.t)!.elapsedTicks).toBe(0);
    }
    // While the leader leads, a follower's clock is reset by its heartbeats and never nears the timeout.
    const n2 = f.wire.electionClockAt('n2', 3_000_000)!;
    expect(n2.elapsedTicks).toBeLessThanOrEqual(1);
  });
});

describe('reflow', () => {
  it('joins a paragraph’s hard line breaks, keeps paragraphs and indented lines', () => {
    expect(reflow('one two\nthree four\n\nnext para\n  A: 1\n  B: 2\nend')).toEqual([
      'one two three four',
      'next para\n  A: 1\n  B: 2\nend',
    ]);
  });
});
