/**
 * Virtual time. An instant or a duration is an integer count of microseconds held in a `number`.
 *
 * Why microseconds in a number: integer arithmetic on doubles is exact up to 2^53 µs (285 years), which
 * holds MaxLeaseTTL (9e9 s = 9e15 µs) plus 81 days of simulated time, and it is several times faster
 * than `bigint`. Go computes in nanoseconds; wherever etcd's arithmetic is observable we reproduce it
 * in nanoseconds first (Promote's spreading delay: float, then truncate to ns) and only then drop the
 * sub-microsecond remainder, which no output of the simulation can show (traces print microseconds).
 */
export type Micros = number;

export const MICROS_PER_MS = 1_000;
export const MICROS_PER_SECOND = 1_000_000;
export const NANOS_PER_MICRO = 1_000;

export const ms = (n: number): Micros => Math.round(n * MICROS_PER_MS);
export const seconds = (n: number): Micros => Math.round(n * MICROS_PER_SECOND);

/** Integer division truncating toward zero, as Go's `/` on int64. Exact for |a| < 2^53. */
export function truncDiv(a: number, b: number): number {
  const q = Math.trunc(a / b);
  // A correctly rounded float quotient can land one off across an integer boundary; correct it.
  const r = a - q * b;
  if (a >= 0 ? r < 0 : r > 0) return q - Math.sign(b);
  if (Math.abs(r) >= Math.abs(b)) return q + Math.sign(a) * Math.sign(b);
  return q;
}

/** Ceiling of a/b for b > 0, exact for integers (checkpoints take `math.Ceil` of remaining seconds). */
export function ceilDiv(a: number, b: number): number {
  const q = truncDiv(a, b);
  return a > q * b ? q + 1 : q;
}

/** Whole seconds of a duration, truncated toward zero (Go's `int64(d.Seconds())`). */
export const wholeSeconds = (d: Micros): number => truncDiv(d, MICROS_PER_SECOND);

/** `12.345678` — seconds with microsecond precision, the form every trace line uses. */
export function formatSeconds(t: Micros): string {
  const neg = t < 0;
  const a = Math.abs(t);
  const s = Math.floor(a / MICROS_PER_SECOND);
  const frac = String(a - s * MICROS_PER_SECOND).padStart(6, '0');
  return `${neg ? '-' : ''}${s}.${frac}`;
}

// Virtual time as text: one function per output style, used everywhere that style is printed.

/** `4.002`, `12`, `-0.998` — seconds with up to six decimals and no trailing zeros, exact to the µs. */
export function formatSecondsShort(t: Micros): string {
  const neg = t < 0;
  const a = Math.abs(Math.round(t));
  const whole = Math.floor(a / MICROS_PER_SECOND);
  const frac = String(a - whole * MICROS_PER_SECOND)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${neg && a !== 0 ? '-' : ''}${whole}${frac === '' ? '' : `.${frac}`}`;
}

/** `4.002 s`, `-0.5 s`, `12 s` — virtual time for people, trailing zeros dropped. */
export const formatTime = (t: Micros): string => `${formatSecondsShort(t)} s`;

/** `16.502` — seconds rounded to the millisecond, for columns and tolerances. */
export const formatSecondsMs = (t: Micros): string => (t / MICROS_PER_SECOND).toFixed(3);

/** `16.502 s` — a time or duration rounded to the millisecond. */
export const formatTimeMs = (t: Micros): string => `${formatSecondsMs(t)} s`;

/** `   16.502 s` — right-aligned to the millisecond, the narrated timeline's first column. */
export const formatTimeColumn = (t: Micros): string => `${formatSecondsMs(t).padStart(9)} s`;

/** `16.502 s` on a whole millisecond, `16.502345 s` otherwise: short where that loses nothing. */
export const formatTimeExact = (t: Micros): string =>
  t % MICROS_PER_MS === 0 ? formatTimeMs(t) : `${formatSeconds(t)} s`;
