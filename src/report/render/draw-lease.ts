import { MICROS_PER_SECOND, formatSecondsShort, formatTime } from '../../clock/time.js';
import { lane, ticks } from './draw-lane.js';
import { GEOMETRY } from './geometry.js';
import type { LeaseLane, Mark, TtlSegment } from './model.js';
import type { TimeScale } from './scale.js';
import { el, groupMarks, kindsOf, pathD, tip } from './svg.js';

const TOP = 5;
const SAW_H = 28;
const BASE = TOP + SAW_H;
const MARK_Y = BASE + 8;

/** Marks with their own shape; other events of the lease are plain ticks. */
const SHAPED = new Set(['lease-grant', 'lease-renew', 'lease-checkpoint', 'lease-expired', 'lease-revoke']);

const WHAT: Record<string, string> = {
  'lease-grant': 'granted',
  'lease-renew': 'renewed by the primary',
  'lease-checkpoint': 'checkpoint (remaining TTL replicated)',
  'lease-expired': 'expired: offered for revoke',
  'lease-revoke': 'revoked',
};

/**
 * A lease's lane: the remaining TTL the primary sees as a sawtooth (full at each grant, renew or promote,
 * falling to zero at expiry, red along zero while expired but not yet revoked, hatched while no lessor is
 * primary), with marks for grants, renewals, checkpoints, expiry offered and revoke.
 */
export function drawLease(l: LeaseLane, scale: TimeScale, y: number): string {
  const name = l.label ?? `lease ${l.hex}`;
  const maxUs = Math.max(
    (l.ttlSeconds ?? 1) * MICROS_PER_SECOND,
    ...l.ttl.map((s) => (s.expiryUs === undefined ? 0 : s.expiryUs - s.startUs)),
  );
  const yOf = (remUs: number): number => BASE - (SAW_H * Math.max(0, Math.min(remUs, maxUs))) / maxUs;
  const saw = l.ttl.map((s) => segment(name, s, scale, yOf)).join('');
  const revoke =
    l.revokedUs === undefined
      ? ''
      : el('line', {
          class: 'revoke-line',
          x1: scale.xc(l.revokedUs),
          y1: TOP - 2,
          x2: scale.xc(l.revokedUs),
          y2: BASE + 2,
        });
  const shaped = l.marks.filter((m) => SHAPED.has(m.kind));
  const plain = l.marks.filter((m) => !SHAPED.has(m.kind));
  const marks = groupMarks(shaped, scale, 4)
    .map((g) =>
      el(
        'g',
        { class: `mk ${g.marks[0]!.kind}`, 'data-kind': kindsOf(g) },
        tip(
          `${name} ${WHAT[g.marks[0]!.kind]}${revokedKeys(g.marks)}`,
          g.marks.map((m) => m.line),
        ),
        shape(g.marks[0]!.kind, g.x),
      ),
    )
    .join('');
  const ttl = l.ttlSeconds === undefined ? '' : ` · TTL ${l.ttlSeconds} s`;
  const about = [
    `lease ${name} (ID ${l.hex})${ttl}`,
    `granted at ${formatTime(l.grantedUs)}${
      l.revokedUs === undefined ? ', never revoked' : `, revoked at ${formatTime(l.revokedUs)}`
    }`,
    `the band is the remaining TTL the primary lessor sees (full height ${formatSecondsShort(maxUs)} s)`,
  ].join('\n');
  return lane(
    {
      id: `lease:${l.key}`,
      cls: 'lane-lease',
      y,
      height: GEOMETRY.leaseHeight,
      label: `${l.label ?? 'lease'}${ttl}`,
      sublabel: l.hex,
      about,
      extra: { 'data-label': l.label ?? '', 'data-lease': l.hex },
    },
    saw + revoke + ticks(plain, scale, MARK_Y - 4, 8) + marks,
  );
}

function revokedKeys(marks: readonly Mark[]): string {
  if (marks[0]!.kind !== 'lease-revoke') return '';
  const keys = /\bkeys=(\S+)/.exec(marks[0]!.line)?.[1];
  return keys === undefined || keys === '[]' ? ', no keys attached' : `, deleting ${keys}`;
}

function segment(name: string, s: TtlSegment, scale: TimeScale, yOf: (remUs: number) => number): string {
  const x0 = scale.xc(s.startUs);
  const x1 = scale.xc(s.endUs);
  if (s.expiryUs === undefined) {
    const summary =
      `${name}: no primary lessor ${formatTime(s.startUs)} → ` +
      `${formatTime(s.endUs)} (followers hold leases with no expiry)`;
    return el(
      'rect',
      { class: 'ttl-none', x: x0, y: TOP, width: Math.max(0.5, x1 - x0), height: SAW_H },
      tip(summary, s.lines),
    );
  }
  const e = s.expiryUs;
  const by = s.primary === undefined ? '' : ` on ${s.primary}`;
  const est = s.estimated ? ' (estimated: promote computes it, no trace line prints it)' : '';
  const left = formatSecondsShort(Math.max(0, e - s.startUs));
  const summary = `${name}${by}: ${left} s left at ${formatTime(s.startUs)}, expires at ${formatTime(e)}${est}`;
  const pts: [number, number][] = [[x0, yOf(e - s.startUs)]];
  if (e < s.endUs) pts.push([scale.xc(Math.max(e, s.startUs)), yOf(0)]);
  pts.push([x1, yOf(e - s.endUs)], [x1, BASE], [x0, BASE]);
  let out = el('path', { class: `ttl${s.estimated ? ' est' : ''}`, d: pathD(pts) }, tip(summary, s.lines));
  if (e < s.endUs) {
    const xe = scale.xc(Math.max(e, s.startUs));
    const overdue =
      `${name} expired at ${formatTime(e)}, not yet revoked: ` +
      `${formatTime(Math.max(e, s.startUs))} → ${formatTime(s.endUs)}`;
    out += el(
      'g',
      { class: 'ttl-overdue' },
      tip(overdue, s.lines),
      el('rect', { class: 'hit', x: xe, y: BASE - 4, width: Math.max(1, x1 - xe), height: 6 }),
      el('line', { x1: xe, y1: BASE - 1, x2: x1, y2: BASE - 1 }),
    );
  }
  return out;
}

function shape(kind: string, x: number): string {
  const y = MARK_Y;
  switch (kind) {
    case 'lease-grant':
      return el('circle', { cx: x, cy: y, r: 3.5 });
    case 'lease-renew':
      return (
        el('rect', { class: 'hit', x: x - 3, y: y - 6, width: 6, height: 12 }) +
        el('line', { x1: x, y1: y - 5, x2: x, y2: y + 5 })
      );
    case 'lease-checkpoint':
      return el('path', {
        d: pathD([
          [x, y - 4.5],
          [x + 4.5, y],
          [x, y + 4.5],
          [x - 4.5, y],
        ]),
      });
    case 'lease-expired': {
      // On the zero line, where the sawtooth runs out, so a revoke right after does not hide it.
      const z = BASE - 1;
      return el('path', {
        d: pathD([
          [x - 5, z - 8],
          [x + 5, z - 8],
          [x, z],
        ]),
      });
    }
    default:
      return (
        el('rect', { class: 'hit', x: x - 6, y: y - 6, width: 12, height: 12 }) +
        el('path', {
          d: `${pathD(
            [
              [x - 4.5, y - 4.5],
              [x + 4.5, y + 4.5],
            ],
            true,
          )} ${pathD(
            [
              [x + 4.5, y - 4.5],
              [x - 4.5, y + 4.5],
            ],
            true,
          )}`,
        })
      );
  }
}
