import type { Process, ProcessTask } from '../../clock/process.js';
import { QueuedEvent } from '../../clock/queued-event.js';
import type { Prng } from '../../clock/prng.js';
import type { Scheduler } from '../../clock/scheduler.js';
import type { Micros } from '../../clock/time.js';
import { NO_TRACE, type Trace } from '../../trace/trace.js';
import { checkDelay, resolveNetworkConfig, type NetworkConfig } from './config.js';
import { Endpoint } from './endpoint.js';

/**
 * `peer` is member-to-member traffic (raft, lease forwarding): it suffers loss and partitions.
 * `client` is gRPC between a client and a member: clients reach every member, nothing is lost.
 */
export type TrafficKind = 'peer' | 'client';

/**
 * The simulated network. Each message arrives after its link's one-way latency plus uniform jitter, in
 * FIFO order per direction of a link, and is handed to the receiver's process under the process rules:
 * a stopped receiver handles it on resume, a dead one loses it. The message goes to whatever incarnation
 * runs when it arrives.
 *
 * A partition cuts peer traffic between groups, both for messages sent while it holds and for messages
 * still in flight when it starts (a cut cable loses what is on it).
 */
export class Network {
  private readonly config: NetworkConfig;
  private readonly prng: Prng;
  private readonly endpoints = new Map<string, Endpoint>();
  /** An onlooker told of every message put on the wire (the playground's picture); none by default. */
  observer: WireObserver | undefined = undefined;

  constructor(
    private readonly sched: Scheduler,
    prng: Prng,
    config: Partial<NetworkConfig> = {},
    private readonly trace: Trace = NO_TRACE,
  ) {
    this.config = resolveNetworkConfig(config);
    this.prng = prng.fork('network');
  }

  /** Binds an endpoint name to the process that receives its messages. */
  attach(name: string, process: Process): void {
    if (this.endpoints.has(name)) throw new Error(`network: endpoint ${name} is already attached`);
    this.endpoints.set(name, new Endpoint(name, this.endpoints.size, process));
  }

  /**
   * Sends a message; `deliver` runs on the receiver's process when (and if) it arrives. When it reaches
   * an endpoint whose process is dead, `refused` (if given) travels back to the sender, as a TCP reset
   * from the host would: a stopped process still accepts connections, a killed one does not.
   */
  send(from: string, to: string, kind: TrafficKind, deliver: () => void, refused?: () => void): void {
    this.transmit(from, to, kind, new Packet(CLOSURES, 0, deliver, refused));
  }

  /** `send` for a message as a packet record: its handler is told of its arrival or refusal. */
  transmit(from: string, to: string, kind: TrafficKind, packet: Packet): void {
    this.route(this.endpoint(from), this.endpoint(to), kind === 'peer', packet);
  }

  /** Sends `reply` back the way `p` came, between the endpoints it already carries. */
  reply(p: Packet, reply: Packet): void {
    this.route(p.dst!, p.src!, p.peer, reply);
  }

  /** The endpoint attached as `name`, for a sender that keeps it and calls `route` (no lookup per message). */
  endpointOf(name: string): Endpoint {
    return this.endpoint(name);
  }

  /** `transmit` between endpoints already looked up; `peer` is the kind 'peer'. */
  route(src: Endpoint, dst: Endpoint, peer: boolean, packet: Packet): void {
    packet.net = this;
    packet.src = src;
    packet.dst = dst;
    packet.peer = peer;
    if (peer) {
      if (src.group !== dst.group) return this.observer?.sent(packet, this.sched.now(), undefined);
      if (this.config.lossProbability > 0 && this.prng.float() < this.config.lossProbability)
        return this.observer?.sent(packet, this.sched.now(), undefined);
    }
    const jitter = this.config.jitterUs > 0 ? this.prng.int(0, this.config.jitterUs) : 0;
    const now = this.sched.now();
    const link = src.linkTo(dst, this.config.latencyUs);
    const at = link.arrival(now, jitter);
    // Told before it is queued and never able to change it: traces are the same with or without one.
    this.observer?.sent(packet, now, at);
    // The common case, a packet not held back by jitter or FIFO order, joins its latency's lane.
    if (at === now + link.latencyUs) this.sched.postInLane(link.laneIn(this.sched), packet);
    else this.sched.post(at, packet);
  }

  /** Overrides the one-way latency of the link between `a` and `b`, both directions. */
  setLinkLatency(a: string, b: string, us: Micros): void {
    checkDelay('latency', us);
    const ea = this.endpoint(a);
    const eb = this.endpoint(b);
    ea.linkTo(eb, us).latencyUs = us;
    eb.linkTo(ea, us).latencyUs = us;
  }

  /**
   * Members talk only inside their group. An attached endpoint left out of every group is cut off from
   * all others. Replaces any earlier partition.
   */
  partition(groups: readonly (readonly string[])[]): void {
    const seen = new Set<string>();
    for (const g of groups) {
      for (const name of g) {
        this.endpoint(name);
        if (seen.has(name)) throw new Error(`network: ${name} appears in two partition groups`);
        seen.add(name);
      }
    }
    for (const e of this.endpoints.values()) e.group = groups.length + 1 + e.index;
    groups.forEach((g, i) => {
      for (const name of g) this.endpoint(name).group = i + 1;
    });
    this.trace.emit({
      t: this.sched.now(),
      member: 'sim',
      kind: 'net-partition',
      fields: { groups },
    });
  }

  heal(): void {
    for (const e of this.endpoints.values()) e.group = 0;
    this.trace.emit({ t: this.sched.now(), member: 'sim', kind: 'net-heal' });
  }

  /** Whether a message of `kind` sent now from `from` to `to` would get through the partition. */
  connected(from: string, to: string, kind: TrafficKind = 'peer'): boolean {
    return kind === 'client' || this.endpoint(from).group === this.endpoint(to).group;
  }

  private endpoint(name: string): Endpoint {
    const e = this.endpoints.get(name);
    if (e === undefined) throw new Error(`network: unknown endpoint ${name}`);
    return e;
  }
}

/**
 * Who handles a kind of message: `deliver` runs on the receiver's process when the packet arrives,
 * `refused` at arrival when the receiver's process is dead (as a TCP reset would be noticed).
 */
export interface PacketHandler {
  deliver(p: Packet): void;
  refused(p: Packet): void;
  /** What `p` is, for an onlooker (WireObserver); never called by the simulation itself. */
  label?(p: Packet): WireLabel;
}

/** A message as an onlooker names it: its kind, the lease it is about, what raft entries it carries. */
export interface WireLabel {
  readonly kind: string;
  readonly lease?: bigint;
  readonly carries?: readonly string[];
}

/**
 * A side channel for onlookers: each message as it is put on the wire, with its arrival time (undefined
 * when a partition or loss drops it there). Messages are too many to trace; this channel leaves the
 * trace as it is.
 */
export interface WireObserver {
  sent(p: Packet, sentUs: Micros, arriveUs: Micros | undefined): void;
}

/**
 * One message on the wire; the scheduler fires it on arrival. One class for every message, so the
 * scheduler's and the network's field accesses stay monomorphic: what the message is lives in
 * `tag` and `arg` (and `extra`), read by its handler. `Network.transmit` fills in the routing fields.
 */
export class Packet extends QueuedEvent implements ProcessTask {
  net: Network | undefined;
  src: Endpoint | undefined;
  dst: Endpoint | undefined;
  peer = false;

  constructor(
    readonly handler: PacketHandler,
    readonly tag: number,
    readonly arg: unknown,
    readonly extra?: unknown,
  ) {
    super();
  }

  /** The sender's endpoint name, once transmitted. */
  get from(): string {
    return this.src!.name;
  }

  /** The receiver's endpoint name, once transmitted. */
  get to(): string {
    return this.dst!.name;
  }

  fire(): void {
    const dst = this.dst!;
    if (this.peer && this.src!.group !== dst.group) return;
    const p = dst.process;
    if (!p.alive) return this.handler.refused(this);
    p.deliverTask(p.generation, this);
  }

  run(): void {
    this.handler.deliver(this);
  }

  /** What this message is, as its handler names it (for a WireObserver). */
  label(): WireLabel {
    return this.handler.label?.(this) ?? { kind: this.peer ? 'peer' : 'client' };
  }

  /** Sends `reply` back the way this packet came (a refusal, a response). */
  answer(reply: Packet): void {
    this.net!.reply(this, reply);
  }
}

/** `Network.send`'s messages: `arg` is the delivery closure, `extra` the refusal one. */
const CLOSURES: PacketHandler = {
  deliver: (p) => (p.arg as () => void)(),
  refused: (p) => {
    if (p.extra !== undefined) p.answer(new Packet(CLOSURES, 0, p.extra));
  },
};
