import { describe, expect, it } from 'vitest';
import { seconds } from '../../src/clock/time.js';
import { exitCodeOf, guardFor, NO_LIMITS, parseLimits, STOPPED_EXIT_CODE, stopLine } from '../../src/cli/limits.js';
import { CLEAR_LINE, progressLine, ReplayProgress } from '../../src/cli/progress.js';
import { summary, toJson } from '../../src/report/summary.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario, type RunResult } from '../../src/scenario/replay/runner.js';

const HOUR = parseScenario('name: hour\nsteps:\n  - { at: 1h, expect: { key: /k, exists: false } }\n', 'hour.yaml');
if (!HOUR.ok) throw new Error('hour.yaml does not parse');

describe('--max-events and --timeout', () => {
  it('parse to a budget and wall milliseconds, and refuse what is not a positive count or duration', () => {
    expect(parseLimits(undefined, undefined)).toEqual(NO_LIMITS);
    expect(parseLimits('5000', '1m30s')).toEqual({ maxEvents: 5000, timeoutMs: 90_000 });
    expect(parseLimits('0', undefined)).toBe('--max-events takes a positive integer, got "0"');
    expect(parseLimits('1e6', undefined)).toContain('--max-events takes a positive integer');
    expect(parseLimits(undefined, '30')).toBe(
      '--timeout takes a positive wall-clock duration such as 30s or 5m, got "30"',
    );
    expect(parseLimits(undefined, '0s')).toContain('--timeout takes a positive');
  });

  it(
    'end a replay with one line naming the file, ' +
      'the virtual time reached and the events so far, ' +
      'and exit code 3',
    () => {
      const r = runScenario(HOUR.scenario, { guard: guardFor({ maxEvents: 50_000, timeoutMs: undefined }, () => 0) });
      const line = stopLine(r)!;
      expect(line).toMatch(
        new RegExp(
          String.raw`^lessor-sim: hour\.yaml: stopped at \d+\.\d{6} s of 3601\.000000 s virtual, ` +
            String.raw`after 50000 events: passed its budget of 50000 events \(--max-events\)$`,
        ),
      );
      expect(line).not.toContain('\n');
      expect(exitCodeOf([r])).toBe(STOPPED_EXIT_CODE);
      expect(STOPPED_EXIT_CODE).toBe(3);
      // The verdict block and --json say it too; the total line says stopped, not failed.
      expect(toJson(r)).toMatchObject({ passed: false, stopped: { reason: 'max-events', events: 50_000 } });
      expect(summary(r).at(-1)).toBe('0 passed, 0 failed, stopped');
      expect(summary(r)[0]).toMatch(
        new RegExp(
          String.raw`^STOPPED {2}hour\.yaml: at \d+\.\d{6} s after 50000 events: passed its budget ` +
            'of 50000 events; later assertions were not evaluated$',
        ),
      );
    },
  );

  it('time out on the wall clock the CLI gives, checked between events', () => {
    let wallMs = 0;
    const r = runScenario(HOUR.scenario, {
      guard: guardFor(
        { maxEvents: undefined, timeoutMs: 2000 },
        () => wallMs,
        () => (wallMs += 1000),
      ),
    });
    expect(r.stopped?.reason).toBe('poll');
    expect(stopLine(r)).toContain('passed its wall-clock timeout of 2s (--timeout)');
    // Three polls: the wall clock read 1000, 2000, then 3000 ms, which is past the timeout.
    expect(r.stopped?.events).toBe(3 * 65_536);
  });

  it('leave the exit code to the assertions when nothing was stopped', () => {
    const ok = { passed: true } as RunResult;
    const failed = { passed: false } as RunResult;
    expect(exitCodeOf([ok, ok])).toBe(0);
    expect(exitCodeOf([ok, failed])).toBe(1);
    expect(
      exitCodeOf([
        failed,
        { passed: false, stopped: { reason: 'livelock', atUs: 0, events: 1, message: '' } } as RunResult,
      ]),
    ).toBe(3);
    expect(stopLine(ok)).toBeUndefined();
  });
});

describe('the progress line', () => {
  it('states virtual time reached of the total, events per second and the wall time left', () => {
    expect(progressLine('f.yaml', seconds(899), seconds(-1), seconds(3599), 200_000, 2000)).toBe(
      'virtual 899.0 s of 3599.0 s (25.0 %), 100.0 k events/s, ~6 s left  f.yaml',
    );
    expect(progressLine('f.yaml', seconds(-1), seconds(-1), seconds(9), 0, 10)).toContain('~? left');
    expect(progressLine('f.yaml', seconds(7200), 0, seconds(86400), 3_000_000, 1000)).toBe(
      'virtual 2.00 h of 24.00 h (8.3 %), 3.00 M events/s, ~11 s left  f.yaml',
    );
  });

  it(
    'shows only after its delay, ' +
      'redraws in place at most every 200 ms, ' +
      'cuts to the width and clears at the end',
    () => {
      let now = 0;
      const out: string[] = [];
      const p = new ReplayProgress(
        'a-rather-long-file-name.yaml',
        0,
        seconds(100),
        { write: (s) => out.push(s), columns: 40 },
        () => now,
      );
      p.update(seconds(1), 10);
      now = 999;
      p.update(seconds(2), 20);
      expect(out).toEqual([]);
      now = 1000;
      p.update(seconds(10), 100);
      now = 1100;
      p.update(seconds(11), 110);
      now = 1200;
      p.update(seconds(12), 120);
      expect(out).toHaveLength(2);
      for (const s of out) {
        expect(s.startsWith(CLEAR_LINE)).toBe(true);
        expect(s.length - CLEAR_LINE.length).toBe(39);
      }
      p.clear();
      expect(out.at(-1)).toBe(CLEAR_LINE);
      p.clear();
      expect(out).toHaveLength(3);
    },
  );

  it('never draws, and never clears, for a replay that ends within its delay', () => {
    const out: string[] = [];
    const p = new ReplayProgress('f', 0, 1, { write: (s) => out.push(s), columns: 80 }, () => 0);
    p.update(1, 1);
    p.clear();
    expect(out).toEqual([]);
  });
});
