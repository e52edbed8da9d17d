import { formatSecondsShort, type Micros } from '../../clock/time.js';

/** Maps virtual time onto the plot's x axis. */
export class TimeScale {
  readonly pxPerUs: number;

  constructor(
    readonly startUs: Micros,
    readonly endUs: Micros,
    /** x of startUs. */
    readonly left: number,
    readonly width: number,
  ) {
    this.pxPerUs = width / Math.max(1, endUs - startUs);
  }

  x(t: Micros): number {
    return this.left + (t - this.startUs) * this.pxPerUs;
  }

  /** x clamped to the plot, for spans that start before or end after it. */
  xc(t: Micros): number {
    return this.x(Math.min(this.endUs, Math.max(this.startUs, t)));
  }

  get right(): number {
    return this.left + this.width;
  }
}

/** A tick step of 1, 2 or 5 times a power of ten µs (at least 1 ms) giving ticks about `targetPx` apart. */
export function niceStepUs(spanUs: Micros, widthPx: number, targetPx = 90): Micros {
  const raw = (Math.max(1, spanUs) * targetPx) / Math.max(1, widthPx);
  for (let p = 1_000; ; p *= 10) {
    for (const m of [1, 2, 5]) if (m * p >= raw) return m * p;
  }
}

export interface AxisTick {
  readonly t: Micros;
  readonly label: string;
}

/** Ticks at every multiple of a nice step inside [startUs, endUs], labelled in seconds. */
export function axisTicks(scale: TimeScale, targetPx = 90): AxisTick[] {
  const step = niceStepUs(scale.endUs - scale.startUs, scale.width, targetPx);
  const out: AxisTick[] = [];
  for (let t = Math.ceil(scale.startUs / step) * step; t <= scale.endUs; t += step) {
    out.push({ t, label: `${formatSecondsShort(t)}s` });
  }
  return out;
}
