/**
 * How loaded the host is, as the driver itself feels it: a timer armed every 50 ms while real etcd runs,
 * and how late each one fires. On a quiet host the lag is a millisecond or two; when other work holds
 * the CPUs, etcd's own timers and the driver's steps slip by the same order, so a difference in event
 * times then says nothing about the model. The load average is printed beside it, for the reader.
 */
import { cpus, loadavg } from 'node:os';
import type { Micros } from '../clock/time.js';
import { nowUs } from './wall-clock.js';

const PERIOD_MS = 50;
/** Busy when the 95th percentile lag passes this: a timer a fifth of a period late, time and again. */
export const BUSY_P95_LAG_US = 10_000;
/** Busy when any one lag passes this: the process did not run for a fifth of a second. */
export const BUSY_MAX_LAG_US = 200_000;

export interface LoadReading {
  readonly samples: number;
  readonly p50LagUs: Micros;
  readonly p95LagUs: Micros;
  readonly maxLagUs: Micros;
  /** The 1-minute load average at the end, and the core count. */
  readonly loadAverage: number;
  readonly cores: number;
  /** p95 above BUSY_P95_LAG_US or max above BUSY_MAX_LAG_US. */
  readonly busy: boolean;
}

export class LoadProbe {
  private readonly lags: Micros[] = [];
  private timer: NodeJS.Timeout | undefined;
  private due = 0;

  start(): void {
    this.due = nowUs() + PERIOD_MS * 1000;
    this.timer = setTimeout(this.fire, PERIOD_MS);
  }

  private readonly fire = (): void => {
    const now = nowUs();
    this.lags.push(Math.max(0, now - this.due));
    this.due = now + PERIOD_MS * 1000;
    this.timer = setTimeout(this.fire, PERIOD_MS);
    // A probe must never keep the process alive on its own.
    this.timer.unref();
  };

  stop(): LoadReading {
    clearTimeout(this.timer);
    this.timer = undefined;
    const sorted = [...this.lags].sort((a, b) => a - b);
    const at = (q: number): Micros => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
    const reading = {
      samples: sorted.length,
      p50LagUs: at(0.5),
      p95LagUs: at(0.95),
      maxLagUs: sorted.at(-1) ?? 0,
      loadAverage: loadavg()[0] ?? 0,
      cores: cpus().length,
    };
    return { ...reading, busy: reading.p95LagUs > BUSY_P95_LAG_US || reading.maxLagUs > BUSY_MAX_LAG_US };
  }
}
