/**
 * The faults a person can click on `serve --playground`'s live view, as served inputs: each enters the
 * simulation at the current virtual instant, is written to `--record` and replays with `run --input`, and
 * does what the scenario step of the same name does (the cluster traces the same member-/net- events).
 */
import type { Cluster } from '../../cluster/cluster.js';

export const LIVE_ACTIONS = ['pause', 'resume', 'crash', 'restart', 'isolate', 'heal', 'transfer-leader'] as const;
export type LiveAction = (typeof LIVE_ACTIONS)[number];

export interface LiveFault {
  readonly action: LiveAction;
  /** The member it acts on (for transfer-leader: the one to lead); absent for heal. */
  readonly member?: string;
}

/** The fault a request body asks for, or why it is not one (for the page's 400 answer). */
export function liveFaultOf(body: unknown, members: readonly string[]): LiveFault | string {
  if (typeof body !== 'object' || body === null) return 'expected a JSON object {"action":...,"member":...}';
  const o = body as Record<string, unknown>;
  const action = o.action;
  if (typeof action !== 'string' || !(LIVE_ACTIONS as readonly string[]).includes(action))
    return `action must be one of ${LIVE_ACTIONS.join(', ')}`;
  if (action === 'heal') return { action };
  if (typeof o.member !== 'string' || !members.includes(o.member)) return `member must be one of ${members.join(', ')}`;
  return { action: action as LiveAction, member: o.member };
}

/**
 * Why the fault cannot act on the cluster as it stands (a restart of a running member), or undefined. A
 * fault that cannot act is refused before it enters, so the record holds only faults that acted.
 */
export function whyNot(c: Cluster, f: LiveFault): string | undefined {
  if (f.member === undefined) return undefined;
  const p = c.process(f.member);
  switch (f.action) {
    case 'pause':
      return !p.alive ? `${f.member} is crashed` : p.paused ? `${f.member} is paused already` : undefined;
    case 'resume':
      return p.paused ? undefined : `${f.member} is not paused`;
    case 'crash':
      return p.alive ? undefined : `${f.member} is crashed already`;
    case 'restart':
      return p.alive ? `${f.member} is running; only a crashed member can restart` : undefined;
    case 'transfer-leader':
      return c.leader() === undefined ? 'there is no leader to transfer from' : undefined;
    default:
      return undefined;
  }
}

/** Acts on the cluster as the scenario step does (the caller has checked `whyNot`). */
export function injectFault(c: Cluster, f: LiveFault): void {
  const m = f.member;
  switch (f.action) {
    case 'pause':
      return c.pause(m!);
    case 'resume':
      return c.resume(m!);
    case 'crash':
      return c.crash(m!);
    case 'restart':
      return c.restart(m!);
    case 'isolate':
      return c.partition([[m!], c.names.filter((n) => n !== m)]);
    case 'heal':
      return c.heal();
    case 'transfer-leader':
      c.transferLeader(m!);
      return;
  }
}
