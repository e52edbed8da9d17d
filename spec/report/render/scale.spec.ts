// Time on the page: nice axis steps, exact seconds in labels, trace expiry fields read back exactly.
import { describe, expect, it } from 'vitest';
import { TimeScale, axisTicks, niceStepUs } from '../../../src/report/render/scale.js';
import { formatSecondsShort } from '../../../src/clock/time.js';

describe('axis', () => {
  it('steps 1, 2 or 5 times a power of ten, about 90 px apart', () => {
    expect(niceStepUs(23_000_000, 1080)).toBe(2_000_000);
    expect(niceStepUs(10_000_000, 1080)).toBe(1_000_000);
    expect(niceStepUs(600_000_000, 1080)).toBe(50_000_000);
    expect(niceStepUs(50_000, 1080)).toBe(5_000);
    expect(niceStepUs(0, 1080)).toBe(1_000);
  });

  it('ticks every multiple of the step inside the range, including negatives', () => {
    expect(axisTicks(new TimeScale(-1_000_000, 9_000_000, 0, 500)).map((t) => t.label)).toEqual([
      '0s',
      '2s',
      '4s',
      '6s',
      '8s',
    ]);
    const scale = new TimeScale(-3_000_000, 9_000_000, 0, 1000);
    expect(axisTicks(scale).map((t) => t.label)).toEqual(['-2s', '0s', '2s', '4s', '6s', '8s']);
    expect(scale.x(-3_000_000)).toBe(0);
    expect(scale.x(9_000_000)).toBe(1000);
    expect(scale.xc(20_000_000)).toBe(1000);
  });
});

describe('seconds', () => {
  it('prints exactly, without trailing zeros', () => {
    expect(formatSecondsShort(4_002_000)).toBe('4.002');
    expect(formatSecondsShort(12_000_000)).toBe('12');
    expect(formatSecondsShort(-998_000)).toBe('-0.998');
    expect(formatSecondsShort(1)).toBe('0.000001');
    expect(formatSecondsShort(-0)).toBe('0');
  });
});
