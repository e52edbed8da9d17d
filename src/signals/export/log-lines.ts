/** Log records as JSON lines: virtual time in seconds, level, the event, then its fields. */
import { MICROS_PER_SECOND } from '../../clock/time.js';
import type { LogRecord } from '../store.js';

export function logLines(logs: readonly LogRecord[]): string {
  return logs
    .map(
      (l) =>
        `${JSON.stringify({
          ts: l.t / MICROS_PER_SECOND,
          level: l.event === 'lost' ? 'warn' : 'info',
          msg: `lease ${l.event}`,
          event: l.event,
          ...l.fields,
        })}\n`,
    )
    .join('');
}
