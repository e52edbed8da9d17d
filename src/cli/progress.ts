/**
 * The progress line a long replay draws on stderr when it is a terminal: virtual time reached of the
 * total, events per second and an estimate of the wall time left, redrawn in place and erased at the end.
 */
import type { Micros } from '../clock/time.js';

/** A replay shorter than this never shows progress. */
export const PROGRESS_AFTER_MS = 1000;
const REDRAW_EVERY_MS = 200;
/** Erases the line the cursor is on and returns to its start. */
export const CLEAR_LINE = '\r\x1b[K';

export interface ProgressTerminal {
  readonly write: (s: string) => void;
  /** Terminal width; the line is cut to it so that redrawing in place never wraps. */
  readonly columns: number;
}

export class ReplayProgress {
  private readonly startedMs: number;
  private lastDrawMs = -Infinity;
  private drawn = false;

  constructor(
    private readonly label: string,
    /** The virtual time the replay starts at (before 0: the cluster boots first) and runs until. */
    private readonly fromUs: Micros,
    private readonly toUs: Micros,
    private readonly term: ProgressTerminal,
    private readonly nowMs: () => number,
    private readonly afterMs = PROGRESS_AFTER_MS,
  ) {
    this.startedMs = nowMs();
  }

  update(virtualUs: Micros, events: number): void {
    const now = this.nowMs();
    const elapsed = now - this.startedMs;
    if (elapsed < this.afterMs || now - this.lastDrawMs < REDRAW_EVERY_MS) return;
    this.lastDrawMs = now;
    this.drawn = true;
    this.term.write(
      CLEAR_LINE +
        progressLine(this.label, virtualUs, this.fromUs, this.toUs, events, elapsed).slice(
          0,
          Math.max(this.term.columns - 1, 10),
        ),
    );
  }

  /** Erases the line, if one was drawn. */
  clear(): void {
    if (this.drawn) this.term.write(CLEAR_LINE);
    this.drawn = false;
  }
}

export function progressLine(
  label: string,
  virtualUs: Micros,
  fromUs: Micros,
  toUs: Micros,
  events: number,
  elapsedMs: number,
): string {
  const done = Math.min(Math.max((virtualUs - fromUs) / Math.max(toUs - fromUs, 1), 0), 1);
  const seconds = elapsedMs / 1000;
  const left = done > 0 ? (seconds * (1 - done)) / done : Infinity;
  // The label goes last: on a narrow terminal the cut takes it rather than the figures.
  const hours = toUs >= 3600e6;
  return (
    `virtual ${virtual(virtualUs, hours)} of ${virtual(toUs, hours)} (${(done * 100).toFixed(1)}` +
    ` %), ${rate(events / Math.max(seconds, 1e-3))} events/s, ~${wall(left)} left  ${label}`
  );
}

function virtual(us: Micros, hours: boolean): string {
  return hours ? `${(us / 3600e6).toFixed(2)} h` : `${(us / 1e6).toFixed(1)} s`;
}

function rate(n: number): string {
  return n >= 1e6 ? `${(n / 1e6).toFixed(2)} M` : n >= 1e3 ? `${(n / 1e3).toFixed(1)} k` : n.toFixed(0);
}

function wall(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 60) return `${Math.ceil(s)} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${Math.round(s % 60)} s`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}
