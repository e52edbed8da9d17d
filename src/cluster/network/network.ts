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

  /** The endpoint attached as `name`, for a sender that keeps it (no lookup per message). */
  endpointOf(name: string): Endpoint {
    return this.endpoint(name);
  }

  /**
   * The one way onto the wire: `packet` goes from `from` to `to` (names, or endpoints the sender keeps).
   * Its handler's `deliver` runs on the receiver's process when (and if) it arrives; when it reaches an
   * endpoint whose process is dead, the handler's `refused` runs instead, as a TCP reset from the host would
   * be noticed: a stopped process still accepts connections, a killed one does not.
   */
  send<A, X>(from: string | Endpoint, to: string | Endpoint, kind: TrafficKind, packet: Packet<A, X>): void {
    const src = typeof from === 'string' ? this.endpoint(from) : from;
    const dst = typeof to === 'string' ? this.endpoint(to) : to;
    const peer = kind === 'peer';
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
    packet.inFlight = true;
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
 * Who handles one direction of one kind of message (a request, its answer): `deliver` runs on the
 * receiver's process when the packet arrives, `refused` at arrival when the receiver's process is dead
 * (as a TCP reset would be noticed). `A` is what the packet carries, `X` what rides beside it (the
 * receiving slot, the caller's callback).
 */
export interface PacketHandler<A = unknown, X = unknown> {
  deliver(p: Packet<A, X>): void;
  refused(p: Packet<A, X>): void;
  /** What `p` is, for an onlooker (WireObserver); never called by the simulation itself. */
  label?(p: Packet<A, X>): WireLabel;
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
 * One message on the wire; the scheduler fires it on arrival. One class for every message (the types are
 * erased at run time), so the scheduler's and the network's field accesses stay monomorphic: what the
 * message is lives in `arg` (and `extra`), typed by its handler. `Network.send` fills in the routing fields.
 */
export class Packet<A = unknown, X = unknown> extends QueuedEvent implements ProcessTask {
  net: Network | undefined;
  src: Endpoint | undefined;
  dst: Endpoint | undefined;
  peer = false;
  /**
   * Queued, or waiting in its receiver's input, since it was last sent: cleared when it is handled, refused
   * or cut off on arrival. A sender may send a packet again (the same message, as a repeated heartbeat is)
   * once this is false and no WireObserver holds it; a packet lost with a killed process stays in flight.
   */
  inFlight = false;

  constructor(
    readonly handler: PacketHandler<A, X>,
    readonly arg: A,
    readonly extra: X,
  ) {
    super();
  }

  /** The sender's endpoint name, once sent. */
  get from(): string {
    return this.src!.name;
  }

  /** The receiver's endpoint name, once sent. */
  get to(): string {
    return this.dst!.name;
  }

  fire(): void {
    const dst = this.dst!;
    if (this.peer && this.src!.group !== dst.group) {
      this.inFlight = false;
      return;
    }
    const p = dst.process;
    if (!p.alive) {
      this.inFlight = false;
      return this.handler.refused(this);
    }
    p.receiveInput(p.generation, this);
  }

  run(): void {
    this.inFlight = false;
    this.handler.deliver(this);
  }

  /** What this message is, as its handler names it (for a WireObserver). */
  label(): WireLabel {
    return this.handler.label?.(this) ?? { kind: this.peer ? 'peer' : 'client' };
  }

  /** Sends `reply` back the way this packet came (a refusal, a response). */
  answer<B, Y>(reply: Packet<B, Y>): void {
    this.net!.send(this.dst!, this.src!, this.peer ? 'peer' : 'client', reply);
  }
}

type Call = () => void;

/** A message that is a closure: `deliver` runs on arrival; `refused`, if given, travels back on a refusal. */
export function closure(deliver: Call, refused?: Call): Packet<Call, Call | undefined> {
  return new Packet(CLOSURES, deliver, refused);
}

const CLOSURES: PacketHandler<Call, Call | undefined> = {
  deliver: (p) => p.arg(),
  refused: (p) => {
    if (p.extra !== undefined) p.answer(closure(p.extra));
  },
};
