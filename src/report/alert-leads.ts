/**
 * Each alert's lead over the loss it warns of: for every key the run deleted (a lock lost with its
 * lease, or deleted), when each rule first fired, relative to that deletion.
 */
import { formatSeconds, type Micros } from '../clock/time.js';
import type { RunResult } from '../scenario/replay/runner.js';
import { firstDelete } from '../scenario/replay/signal-verdicts.js';
import { evaluateAlerts, firstFiring, type AlertTimeline } from '../signals/alerts/evaluate.js';
import { recordSignals } from '../signals/recorder.js';

const sec = (us: Micros): string => `${formatSeconds(us).replace(/0+$/, '').replace(/\.$/, '')} s`;

export function alertTimeline(r: RunResult): AlertTimeline | undefined {
  const group = r.scenario.alerts;
  return group === undefined ? undefined : evaluateAlerts(recordSignals(r.trace.events, r.scenario.durationUs), group);
}

/** One line per rule and deleted key: "warned 4.502 s before", "fired 3.997 s after", "never fired". */
export function alertLeads(r: RunResult, tl: AlertTimeline | undefined = alertTimeline(r)): string[] {
  if (tl === undefined) return [];
  const keys = [...new Set(r.trace.events.flatMap((e) => (e.kind === 'kv-delete' ? [e.fields.key] : [])))];
  const out: string[] = [];
  for (const rule of tl.group.rules) {
    const fired = firstFiring(tl, rule.name);
    if (keys.length === 0)
      out.push(
        `alert ${rule.name}: ${fired === undefined ? 'never fired' : `first fired at ${sec(fired)}`}; no key was ` +
          `deleted`,
      );
    for (const key of keys) {
      const del = firstDelete(r.trace.events, key)!;
      const deleted = `${key} was deleted at ${sec(del)}`;
      if (fired === undefined) out.push(`alert ${rule.name}: never fired (${deleted})`);
      else
        out.push(
          `alert ${rule.name}: fired at ${sec(fired)}, ${
            fired <= del ? `${sec(del - fired)} before` : `only ${sec(fired - del)} after`
          } ${deleted}`,
        );
    }
  }
  return out;
}
