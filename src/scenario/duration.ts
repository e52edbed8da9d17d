/**
 * Durations in scenario files: Go-style `250ms`, `4.5s`, `1m30s`, `1h2m3.5s`, `500us`/`500µs`, parsed
 * exactly into integer microseconds (BigInt arithmetic, so `0.1s` is 100000 µs, not a float near it).
 */
import type { Micros } from '../clock/time.js';

export type DurationResult =
  | { readonly ok: true; readonly us: Micros }
  | { readonly ok: false; readonly message: string };

/** Largest first; parsing requires this order so `1s1h` is flagged instead of silently summed. */
const UNITS: readonly (readonly [name: string, us: bigint, rank: number])[] = [
  ['h', 3_600_000_000n, 0],
  ['m', 60_000_000n, 1],
  ['s', 1_000_000n, 2],
  ['ms', 1_000n, 3],
  ['us', 1n, 4],
  ['µs', 1n, 4], // U+00B5 micro sign
  ['μs', 1n, 4], // U+03BC Greek mu; Go accepts both
];

const COMPONENT = /(\d+)(?:\.(\d+))?(h|ms|m|s|us|µs|μs)/y;
const MAX_TEXT = 64;
const MAX_US = BigInt(Number.MAX_SAFE_INTEGER);
const DURATION_EXAMPLES = 'e.g. 250ms, 4s, 4.5s, 1m30s or 2h; units h, m, s, ms, us';

export function parseDuration(text: string, opts: { readonly signed?: boolean } = {}): DurationResult {
  const bad = (why: string): DurationResult => ({
    ok: false,
    message: `bad duration "${text.slice(0, MAX_TEXT)}": ${why}`,
  });
  if (text.length > MAX_TEXT) return bad(`longer than ${MAX_TEXT} characters`);
  let body = text;
  let negative = false;
  if (body.startsWith('-') || body.startsWith('+')) {
    if (!opts.signed) return bad(`a sign is not allowed here; expected a non-negative duration (${DURATION_EXAMPLES})`);
    negative = body.startsWith('-');
    body = body.slice(1);
  }
  if (body === '') return bad(`expected a number with a unit (${DURATION_EXAMPLES})`);
  if (/^\d+(\.\d+)?$/.test(body)) return bad(`missing unit; write e.g. ${body}s or ${body}ms (units h, m, s, ms, us)`);
  if (/\d+(\.\d+)?ns/.test(body)) return bad("nanoseconds are below the simulation's resolution of 1us");

  let total = 0n;
  let lastRank = -1;
  COMPONENT.lastIndex = 0;
  while (COMPONENT.lastIndex < body.length) {
    const at = COMPONENT.lastIndex;
    const m = COMPONENT.exec(body);
    if (!m) return bad(`unexpected "${body.slice(at, at + 8)}"; expected a number with a unit (${DURATION_EXAMPLES})`);
    const [, whole = '', frac = '', unitName = ''] = m;
    const unit = UNITS.find(([name]) => name === unitName);
    if (!unit) return bad(`unknown unit "${unitName}"`);
    const [, unitUs, rank] = unit;
    if (rank <= lastRank) return bad('units must go from largest to smallest, each at most once (e.g. 1h2m3.5s)');
    lastRank = rank;
    const scale = 10n ** BigInt(frac.length);
    const fracUs = BigInt(frac || '0') * unitUs;
    if (fracUs % scale !== 0n) return bad("not a whole number of microseconds (the simulation's resolution is 1us)");
    total += BigInt(whole) * unitUs + fracUs / scale;
    if (total > MAX_US) return bad(`too large; the limit is ${formatDuration(Number.MAX_SAFE_INTEGER)}`);
  }
  const us = Number(total);
  return { ok: true, us: negative && us !== 0 ? -us : us };
}

/**
 * The exact form Go's Duration.String prints, without its zero components: `1m30s`, `250ms`, `4.5s`,
 * `1.5ms`, `500us`, `2h`. It parses back to the same value.
 */
export function formatDuration(us: Micros): string {
  if (!Number.isSafeInteger(us)) throw new RangeError(`formatDuration: ${us} is not a safe integer`);
  if (us === 0) return '0s';
  const sign = us < 0 ? '-' : '';
  let rest = Math.abs(us);
  if (rest < 1_000) return `${sign}${rest}us`;
  if (rest < 1_000_000) return `${sign}${decimal(rest, 3)}ms`;
  const hours = Math.floor(rest / 3_600_000_000);
  rest -= hours * 3_600_000_000;
  const minutes = Math.floor(rest / 60_000_000);
  rest -= minutes * 60_000_000;
  return sign + (hours ? `${hours}h` : '') + (minutes ? `${minutes}m` : '') + (rest ? `${decimal(rest, 6)}s` : '');
}

/** `n / 10^places` as an exact decimal without trailing zeros. */
function decimal(n: number, places: number): string {
  const digits = String(n).padStart(places + 1, '0');
  const whole = digits.slice(0, -places);
  const frac = digits.slice(-places).replace(/0+$/, '');
  return frac ? `${whole}.${frac}` : whole;
}
