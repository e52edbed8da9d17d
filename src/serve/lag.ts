/**
 * How late the pacing loop runs events: at each wake-up, the wall clock minus the virtual time of the first
 * event that was due. Kept as a bounded sample (every k-th wake-up once full), summarised at the end.
 */
const CAPACITY = 100_000;

export class PacingLag {
  private readonly samples: number[] = [];
  private seen = 0;

  /** `lateUs`: how far behind the wall clock the first due event ran. */
  add(lateUs: number): void {
    this.seen++;
    if (this.samples.length < CAPACITY) this.samples.push(lateUs);
    else if (this.seen % Math.ceil(this.seen / CAPACITY) === 0) this.samples[this.seen % CAPACITY] = lateUs;
  }

  /** `pacing lag p50 … ms, p99 … ms, max … ms over N wake-ups`, or undefined before any event ran. */
  summary(): string | undefined {
    if (this.samples.length === 0) return undefined;
    const s = [...this.samples].sort((a, b) => a - b);
    const at = (q: number): string => (s[Math.min(s.length - 1, Math.floor(q * s.length))]! / 1000).toFixed(2);
    return (
      `pacing lag p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms` +
      ` over ${this.seen} wake-ups with events due`
    );
  }
}
