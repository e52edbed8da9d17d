import type { Micros } from '../clock/time.js';
import type { RunResult } from '../scenario/replay/runner.js';
import { formatLeaseId, HOLDER_KINDS, isKindIn } from '../trace/trace.js';

const at = (t: Micros): string => `${(t / 1e6).toFixed(3)} s`;

/**
 * Each holder's acquisitions as a story, belief beside truth: acquired (token, lease) → the cluster wrote
 * its key → the lease was revoked → what the holder noticed and concluded → when it stopped acting.
 */
export function holderStories(result: RunResult): string[] {
  const stories = new Map<
    bigint,
    {
      holder: string;
      links: { t: Micros; text: string }[];
      stoppedAt: Micros | undefined;
      revokedAt: Micros | undefined;
    }
  >();
  const order: bigint[] = [];
  for (const e of result.trace.events) {
    if (!isKindIn(e, HOLDER_KINDS) || e.lease === undefined) continue;
    if (e.kind === 'holder-acquired') {
      stories.set(e.lease, {
        holder: e.member,
        links: [{ t: e.t, text: `acquired ${e.fields.key} at ${at(e.t)} (token ${e.fields.token})` }],
        stoppedAt: undefined,
        revokedAt: undefined,
      });
      order.push(e.lease);
      continue;
    }
    const s = stories.get(e.lease);
    if (s === undefined) continue;
    switch (e.kind) {
      case 'holder-revoked':
        s.revokedAt = e.t;
        s.links.push({ t: e.t, text: `lease revoked at ${at(e.t)} (applied first on ${e.fields.by})` });
        break;
      case 'holder-noticed':
        s.links.push({ t: e.t, text: `noticed ${e.fields.signal} at ${at(e.t)}: ${e.fields.verdict}` });
        break;
      case 'holder-stop': {
        const late = e.fields.lateUs ?? 0;
        const stoppedAt = e.t - late;
        const after =
          s.revokedAt !== undefined && stoppedAt > s.revokedAt
            ? `, ${((stoppedAt - s.revokedAt) / 1e6).toFixed(3)} s after the revoke`
            : '';
        s.links.push({
          t: stoppedAt,
          text: `stopped acting at ${at(stoppedAt)} (${e.fields.reason}${
            late > 0 ? `, noticed at ${at(e.t)}` : ''
          })${after}`,
        });
        s.stoppedAt = stoppedAt;
        break;
      }
      case 'holder-failed':
        s.links.push({ t: e.t, text: `threw at ${at(e.t)}: ${e.fields.error}` });
        s.stoppedAt = e.t;
        break;
    }
  }
  return order.map((id) => {
    const s = stories.get(id)!;
    const believing = s.revokedAt !== undefined && (s.stoppedAt === undefined || s.stoppedAt > s.revokedAt);
    const links = [...s.links]
      .sort((a, b) => a.t - b.t)
      .map((l) => (l.t === s.revokedAt && believing ? `${l.text} while it still believed it held the lock` : l.text));
    if (s.stoppedAt === undefined)
      links.push(
        s.revokedAt !== undefined
          ? 'still believed it held the lock when the run ended, although its lease was gone'
          : 'still held the lock when the run ended',
      );
    return `holder ${s.holder}, lease ${formatLeaseId(id)}: ${links.join(' → ')}`;
  });
}
