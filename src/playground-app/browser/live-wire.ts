/// <reference lib="dom" />
/**
 * The live view's record of the served cluster's traffic, fed by frames: a WireLog (what the picture reads)
 * over the last WINDOW_US of virtual time only, rebuilt every ROLL_US, so a page left open for hours stays
 * small and the clients that went away (each etcdctl command is a connection) leave the picture.
 */
import type { Micros } from '../../clock/time.js';
import type { Packet } from '../../cluster/network/network.js';
import { WireLog } from '../../playground/wire-log.js';
import type { LiveFrame, LiveMessage } from '../../serve/live/frame.js';

/** A client with no message in this long leaves the picture. */
export const WINDOW_US: Micros = 15_000_000;
const ROLL_US: Micros = 5_000_000;

export class LiveWire {
  log = new WireLog();
  private kept: LiveMessage[] = [];
  private passes: Array<readonly [string, Micros]> = [];
  private clocks: Array<readonly [string, Micros, number, number]> = [];
  private rolledAt: Micros = Number.NEGATIVE_INFINITY;

  add(f: LiveFrame): void {
    for (const m of f.messages) {
      this.kept.push(m);
      feed(this.log, m);
    }
    for (const p of f.passes) {
      this.passes.push(p);
      this.log.runLoopPass(p[0], p[1], true);
    }
    for (const c of f.clocks) {
      this.clocks.push(c);
      this.log.electionClock(c[0], c[1], c[2], c[3]);
    }
    if (f.t - this.rolledAt >= ROLL_US) this.roll(f.t);
  }

  /** The leases each client (not a member) renewed within the window before `t`, newest traffic first. */
  keepAlivesBy(t: Micros, members: readonly string[]): Map<string, Set<string>> {
    const out = new Map<string, Set<string>>();
    for (const m of this.kept) {
      if (members.includes(m.from) || m.sentUs < t - WINDOW_US) continue;
      if (!out.has(m.from)) out.set(m.from, new Set());
      if (m.kind === 'keepalive' && m.lease !== undefined) out.get(m.from)!.add(m.lease);
    }
    return out;
  }

  private roll(t: Micros): void {
    this.rolledAt = t;
    const from = t - WINDOW_US;
    this.kept = this.kept.filter((m) => (m.arriveUs ?? m.sentUs) >= from);
    this.passes = this.passes.filter((p) => p[1] >= from);
    // Each member's last clock before the window still holds at its start.
    const lastBefore = new Map<string, readonly [string, Micros, number, number]>();
    for (const c of this.clocks) if (c[1] < from) lastBefore.set(c[0], c);
    this.clocks = [...lastBefore.values(), ...this.clocks.filter((c) => c[1] >= from)];
    this.log = new WireLog();
    for (const m of this.kept) feed(this.log, m);
    for (const p of this.passes) this.log.runLoopPass(p[0], p[1], true);
    for (const c of this.clocks) this.log.electionClock(c[0], c[1], c[2], c[3]);
  }
}

/** A frame's message as the WireLog takes one: it reads only the endpoints and the label of a packet. */
function feed(log: WireLog, m: LiveMessage): void {
  const label = {
    kind: m.kind,
    lease: m.lease === undefined ? undefined : BigInt(m.lease),
    carries: m.carries,
  };
  const packet = { from: m.from, to: m.to, label: () => label } as unknown as Packet;
  log.sent(packet, m.sentUs, m.arriveUs ?? undefined);
}
