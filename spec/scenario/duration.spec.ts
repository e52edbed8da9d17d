import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDuration, parseDuration } from '../../src/scenario/duration.js';

const us = (text: string, signed = false) => {
  const r = parseDuration(text, { signed });
  if (!r.ok) throw new Error(r.message);
  return r.us;
};
const message = (text: string, signed = false) => {
  const r = parseDuration(text, { signed });
  if (r.ok) throw new Error(`${text} parsed as ${r.us}`);
  return r.message;
};

describe('parseDuration', () => {
  it('reads the documented forms exactly', () => {
    expect(us('250ms')).toBe(250_000);
    expect(us('4s')).toBe(4_000_000);
    expect(us('4.5s')).toBe(4_500_000);
    expect(us('1m30s')).toBe(90_000_000);
    expect(us('2h')).toBe(7_200_000_000);
    expect(us('1h2m3.5s')).toBe(3_723_500_000);
    expect(us('500us')).toBe(500);
    expect(us('500µs')).toBe(500);
    expect(us('500μs')).toBe(500);
    expect(us('0.1s')).toBe(100_000);
    expect(us('0s')).toBe(0);
  });

  it('takes a sign only when signed', () => {
    expect(us('-30s', true)).toBe(-30_000_000);
    expect(us('+30s', true)).toBe(30_000_000);
    expect(us('-0s', true)).toBe(0);
    expect(message('-30s')).toMatch(/sign is not allowed/);
  });

  it('rejects anything else with a reason', () => {
    expect(message('4')).toMatch(/missing unit; write e.g. 4s or 4ms/);
    expect(message('')).toMatch(/expected a number with a unit/);
    expect(message('4 s')).toMatch(/unexpected/);
    expect(message('NaN')).toMatch(/unexpected "NaN"/);
    expect(message('1e3s')).toMatch(/unexpected/);
    expect(message('.5s')).toMatch(/unexpected/);
    expect(message('1s1h')).toMatch(/largest to smallest/);
    expect(message('1s1s')).toMatch(/largest to smallest/);
    expect(message('1.5us')).toMatch(/whole number of microseconds/);
    expect(message('1ns')).toMatch(/nanoseconds/);
    expect(message('2502000h')).toMatch(/too large/);
    expect(message(`${'9'.repeat(100)}s`)).toMatch(/longer than 64/);
    expect(message('5d')).toMatch(/unexpected/);
  });
});

describe('formatDuration', () => {
  it('prints the short forms', () => {
    expect(formatDuration(90_000_000)).toBe('1m30s');
    expect(formatDuration(250_000)).toBe('250ms');
    expect(formatDuration(4_500_000)).toBe('4.5s');
    expect(formatDuration(100_000)).toBe('100ms');
    expect(formatDuration(1_500)).toBe('1.5ms');
    expect(formatDuration(500)).toBe('500us');
    expect(formatDuration(7_200_000_000)).toBe('2h');
    expect(formatDuration(3_723_500_000)).toBe('1h2m3.5s');
    expect(formatDuration(0)).toBe('0s');
    expect(formatDuration(-30_000_000)).toBe('-30s');
  });

  it('round-trips through parseDuration', () => {
    fc.assert(
      fc.property(fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (n) => {
        expect(us(formatDuration(n), true)).toBe(n);
      }),
    );
  });
});
