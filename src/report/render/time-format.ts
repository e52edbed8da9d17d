import { MICROS_PER_SECOND, type Micros } from '../../clock/time.js';

/** `4.002 s`, `-0.5 s`, `12 s`: virtual time for people, trailing zeros dropped, exact to the µs. */
export function formatTime(t: Micros): string {
  return `${formatSecondsShort(t)} s`;
}

/** Seconds with up to six decimals and no trailing zeros: `4.002`, `12`, `-0.998`. */
export function formatSecondsShort(t: Micros): string {
  const neg = t < 0;
  const a = Math.abs(Math.round(t));
  const whole = Math.floor(a / MICROS_PER_SECOND);
  const frac = String(a - whole * MICROS_PER_SECOND).padStart(6, '0').replace(/0+$/, '');
  return `${neg && a !== 0 ? '-' : ''}${whole}${frac === '' ? '' : `.${frac}`}`;
}
