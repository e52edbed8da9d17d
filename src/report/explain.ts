import {
  MICROS_PER_SECOND,
  formatSeconds,
  formatSecondsMs,
  formatSecondsShort,
  formatTimeExact,
  formatTimeMs,
  type Micros,
} from '../clock/time.js';
import { FOREVER } from '../lessor/lease.js';
import type { RunResult } from '../scenario/replay/runner.js';
import { formatLeaseId, type EventOf, type TraceKind } from '../trace/trace.js';
import { alertLeads } from './alert-leads.js';
import { answerStories } from './answer-story.js';
import { holderStories } from './holder-story.js';

const expiryText = (us: Micros): string => (us === FOREVER ? 'forever' : formatTimeMs(us));

/** Faults worth a link in every live lease's chain (on the leader, or network-wide). */
const FAULTS: Readonly<Partial<Record<TraceKind, string>>> = {
  'member-crash': 'crashed',
  'member-pause': 'was paused',
  'member-resume': 'resumed',
  'member-clock-jump': 'had its wall clock jump',
  'net-partition': 'the network was partitioned',
  'net-heal': 'the network healed',
};

interface Chain {
  readonly id: bigint;
  readonly links: string[];
  renewals: number;
  firstRenewAt: Micros;
  lastRenew: EventOf<'lease-renew'> | undefined;
  /** The leader when the gathered renewals happened, if not the renewing member (a deposed leader renewing). */
  renewLeader: string | undefined;
  offeredAt: Micros | undefined;
  ended: boolean;
}

/**
 * Why each lease ended when it did: its life as a chain of causes read off the trace (grant, renewals,
 * leader changes and what Promote did to its expiry, checkpoints, expiry, revoke), seen from whichever
 * member was primary at the time.
 */
export function explain(result: RunResult, label?: string): string[] {
  const chains = new Map<bigint, Chain>();
  const order: bigint[] = [];
  let leader: string | undefined;
  const chainOf = (id: bigint): Chain => {
    let c = chains.get(id);
    if (c === undefined) {
      c = {
        id,
        links: [],
        renewals: 0,
        firstRenewAt: 0,
        lastRenew: undefined,
        renewLeader: undefined,
        offeredAt: undefined,
        ended: false,
      };
      chains.set(id, c);
      order.push(id);
    }
    return c;
  };
  const flushRenewals = (c: Chain): void => {
    if (c.renewals === 0) return;
    const last = c.lastRenew!;
    const on = `on ${last.member}${c.renewLeader !== undefined ? ` (while ${c.renewLeader} was leader)` : ''}`;
    c.links.push(
      c.renewals === 1
        ? `renewed ${on} at ${formatTimeExact(last.t)} (expiry ${expiryText(last.fields.expiry)})`
        : `renewed ${c.renewals} times ${on} from ${formatTimeExact(c.firstRenewAt)} to ` +
            `${formatTimeExact(last.t)} (last expiry ${expiryText(last.fields.expiry)})`,
    );
    c.renewals = 0;
  };
  // Renewals are gathered into one link; any other link first writes them, so the chain stays in time order.
  const link = (c: Chain, text: string): void => {
    flushRenewals(c);
    c.links.push(text);
  };
  let promoteBy: { member: string; extendUs: Micros } | undefined;
  for (const e of result.trace.events) {
    if (e.kind === 'raft-leader' && e.member === e.fields.leader) {
      leader = e.member;
      for (const c of chains.values())
        if (!c.ended) link(c, `${e.member} became leader at ${formatTimeExact(e.t)} (term ${e.fields.term})`);
      continue;
    }
    const fault = FAULTS[e.kind];
    if (fault !== undefined && (e.member === leader || e.member === 'sim')) {
      const what =
        e.member === 'sim'
          ? `${fault} at ${formatTimeExact(e.t)}`
          : `leader ${e.member} ${fault} at ${formatTimeExact(e.t)}`;
      for (const c of chains.values()) if (!c.ended) link(c, what);
      if (e.member === leader && e.kind === 'member-crash') leader = undefined;
      continue;
    }
    if (e.kind === 'lessor-promote') {
      promoteBy = { member: e.member, extendUs: e.fields.extend };
      continue;
    }
    if (e.kind === 'lessor-demote') {
      for (const c of chains.values()) if (!c.ended) flushRenewals(c);
      continue;
    }
    if (e.lease === undefined) continue;
    const primaryEvent = e.member === leader;
    switch (e.kind) {
      case 'lease-grant': {
        if (!primaryEvent) break;
        const expiry = e.fields.expiry;
        link(
          chainOf(e.lease),
          `granted at ${formatTimeExact(e.t)} with TTL ${e.fields.ttl} s${
            expiry === FOREVER ? ' while no lessor was primary' : ` (expiry ${expiryText(expiry)})`
          }`,
        );
        break;
      }
      case 'lease-renew': {
        const c = chainOf(e.lease);
        // A renewal on another member than the gathered ones (a stuck old leader, say) starts a link of its own.
        const deposed = leader !== undefined && leader !== e.member ? leader : undefined;
        if (c.renewals > 0 && (c.lastRenew!.member !== e.member || c.renewLeader !== deposed)) flushRenewals(c);
        if (c.renewals === 0) c.firstRenewAt = e.t;
        c.renewLeader = deposed;
        c.renewals++;
        c.lastRenew = e;
        break;
      }
      case 'lease-promoted': {
        const c = chainOf(e.lease);
        flushRenewals(c);
        const by = promoteBy?.member ?? e.member;
        const extendUs = promoteBy?.extendUs ?? 0;
        const { remaining, expiry } = e.fields;
        // Whatever goes beyond now + extend + remaining TTL is Promote's pile-up spreading.
        const spreadUs = expiry - (e.t + extendUs + remaining * MICROS_PER_SECOND);
        const spreadText = spreadUs > 500 ? ` + ${formatSecondsMs(spreadUs)} s spread to avoid a revoke storm` : '';
        const timeout = formatSecondsShort(extendUs);
        const ttls = `remaining TTL ${remaining} s + election timeout ${timeout} s${spreadText}`;
        c.links.push(`Promote on ${by} at ${formatTimeExact(e.t)} set expiry to ${expiryText(expiry)} (${ttls})`);
        break;
      }
      case 'lease-checkpoint':
        if (primaryEvent)
          link(chainOf(e.lease), `checkpointed at ${formatTimeExact(e.t)}: ${e.fields.remaining} s remaining`);
        break;
      case 'lease-expired': {
        const c = chainOf(e.lease);
        flushRenewals(c);
        if (c.offeredAt === undefined)
          c.links.push(
            `expired at ${expiryText(e.fields.expiry)}; the 500 ms run ` +
              `loop offered it for revocation at ${formatTimeExact(e.t)}`,
          );
        else c.links.push(`still unrevoked, offered again at ${formatTimeExact(e.t)} (retry interval)`);
        c.offeredAt = e.t;
        break;
      }
      case 'lease-revoke': {
        if (!primaryEvent && leader !== undefined) break;
        const c = chainOf(e.lease);
        flushRenewals(c);
        const keys = e.fields.keys;
        const cause = c.offeredAt !== undefined ? 'after expiry' : 'by a client LeaseRevoke';
        c.links.push(
          `revoked at ${formatTimeExact(e.t)} ${cause}${keys.length > 0 ? `, deleting ${keys.join(', ')}` : ''}`,
        );
        c.ended = true;
        break;
      }
      default:
        break;
    }
  }
  const end = result.cluster?.now() ?? result.scenario.durationUs;
  const out: string[] = [];
  for (const id of order) {
    const name = result.labels.labelOf(id);
    if (label !== undefined && name !== label) continue;
    const c = chains.get(id)!;
    flushRenewals(c);
    if (!c.ended) c.links.push(`still alive when the run ended at ${formatSeconds(end)} s`);
    out.push(`${name ?? formatLeaseId(id)} (${formatLeaseId(id)}): ${c.links.join(' → ')}`);
  }
  // Holders tell their own stories (only in scenarios with holder steps; not when one lease is asked for).
  if (label === undefined) out.push(...holderStories(result), ...answerStories(result));
  if (label !== undefined && out.length === 0)
    out.push(
      `no lease is labelled ${label} in this scenario (labels: ${
        result.labels
          .entries()
          .map(([l]) => l)
          .join(', ') || 'none'
      })`,
    );
  // With alert rules, each alert's lead over the losses (a whole-run view, so not under --lease).
  if (label === undefined) out.push(...alertLeads(result));
  return out;
}
