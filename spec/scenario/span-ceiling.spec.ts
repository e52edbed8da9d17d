import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { formatError, parseScenario } from '../../src/scenario/parse.js';
import { MAX_SPAN_US } from '../../src/scenario/span-ceiling.js';
import { lines, onlyError, parsed, withSteps } from './support.js';

describe('the ceiling on a scenario virtual span', () => {
  it('is 24 h', () => {
    expect(MAX_SPAN_US).toBe(86_400_000_000);
  });

  it('refuses the library file mutated to duration: 100000h, naming the duration line and the ceiling', () => {
    const file = 'scenarios/bugs/c3-renew-races-revoke.v3.4.yaml';
    const text = readFileSync(file, 'utf8');
    const line = text.split('\n').findIndex((l) => l.startsWith('duration:')) + 1;
    const r = parseScenario(text.replace(/^duration: .*$/m, 'duration: 100000h'), file, { knownBugs: BUG_NAMES });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors.map(formatError)).toEqual([
      `${file}:${line}:11: duration 100000h is beyond the ceiling of 24h of ` +
        `virtual time a scenario may span; shorten it, or split the scenario`,
    ]);
  });

  it('accepts a duration of exactly the ceiling, and refuses one microsecond more', () => {
    const steps = ['steps:', '  - { at: 0s, grant: { lease: L, ttl: 5 } }'];
    expect(parsed(lines('name: t', 'duration: 24h', ...steps)).durationUs).toBe(MAX_SPAN_US);
    const e = onlyError(lines('name: t', 'duration: 24h0m0.000001s', ...steps));
    expect([e.line, e.col]).toEqual([2, 11]);
    expect(e.message).toContain('ceiling of 24h');
  });

  it('refuses a step at, or a pause lasting, past the ceiling, positioned at that step', () => {
    const late = onlyError(
      withSteps('- { at: 0s, grant: { lease: L, ttl: 5 } }', '- { at: 100000h, revoke: { lease: L } }'),
    );
    expect([late.line, late.message]).toEqual([
      4,
      'this step runs until 100000h, beyond the ceiling of 24h of virtual time a scenario may span',
    ]);
    const long = onlyError(withSteps('- { at: 1h, pause: { client: c1, for: 23h30m } }'));
    expect([long.line, long.message]).toEqual([
      3,
      'this step runs until 24h30m, beyond the ceiling of 24h of virtual time a scenario may span',
    ]);
  });

  it('lets the last step sit at the ceiling (the replay runs one second past it)', () => {
    expect(parsed(withSteps('- { at: 24h, expect: { key: /k, exists: false } }')).durationUs).toBe(
      MAX_SPAN_US + 1_000_000,
    );
  });
});
