import type { Micros } from '../clock/time.js';
import { formatDuration } from './duration.js';

/**
 * The longest virtual span a scenario file may state, in its `duration` or in any step's time. An idle
 * 3-member cluster costs about 110 events per virtual second, so 24 h is some 10 million events, a few
 * seconds of wall time (`npm run bench`, idle-day); a typo such as `100000h` would replay for hours.
 */
export const MAX_SPAN_US: Micros = 24 * 3_600_000_000;

export function durationBeyondCeiling(durationUs: Micros): string {
  return (
    `duration ${formatDuration(durationUs)} is beyond the ceiling of ${formatDuration(MAX_SPAN_US)}` +
    ` of virtual time a scenario may span; shorten it, or split the scenario`
  );
}

export function stepBeyondCeiling(endUs: Micros): string {
  return (
    `this step runs until ${formatDuration(endUs)}, beyond the ceiling of ` +
    `${formatDuration(MAX_SPAN_US)} of virtual time a scenario may span`
  );
}
