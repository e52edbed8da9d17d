import type { Endpoint } from '../network/endpoint.js';
import { Packet, type Network, type PacketHandler, type WireLabel } from '../network/network.js';
import type { Entry } from './entry.js';
import type { Message } from './messages.js';

/** Whatever handles a member's raft messages: the RaftNode of its current incarnation. */
export interface RaftPeer {
  readonly id: string;
  step(m: Message): void;
}

/** A member as the transport knows it: the node of its current incarnation, and its endpoint once used. */
class MemberSlot {
  peer: RaftPeer | undefined = undefined;
  endpoint: Endpoint | undefined = undefined;
  /** The last packet sent to each member, by its slot's index: sent again when it carries the same message. */
  readonly lastSent: (Packet<Message, MemberSlot> | undefined)[] = [];
  constructor(
    readonly name: string,
    readonly index: number,
  ) {}
}

/**
 * Carries raft messages as peer traffic, each as a packet this transport handles (no closure per
 * message). The receiver is looked up when the message arrives, so a member restarted with a new
 * RaftNode gets what reaches its new incarnation.
 */
export class RaftTransport implements PacketHandler<Message, MemberSlot> {
  private readonly members = new Map<string, MemberSlot>();

  constructor(private readonly network: Network) {}

  /**
   * Makes `peer` the receiver of messages for its id (replacing an earlier incarnation's node); returns
   * what it sends its own messages through.
   */
  register(peer: RaftPeer): RaftOutbox {
    const m = this.member(peer.id);
    m.peer = peer;
    return new RaftOutbox(this, m);
  }

  /** Sends `m`, whose sender is `from`. */
  sendFrom(from: MemberSlot, m: Message): void {
    const to = this.member(m.to);
    // Raft repeats a heartbeat and its answer as the same message object; once the last one has arrived its
    // packet goes again, so an idle cluster allocates nothing per heartbeat.
    let p = from.lastSent[to.index];
    if (p === undefined || p.arg !== m || p.inFlight || this.network.observer !== undefined) {
      p = new Packet(this, m, to);
      from.lastSent[to.index] = p;
    }
    this.network.send(this.endpoint(from), this.endpoint(to), 'peer', p);
  }

  /** A packet carries the Message and, beside it, the receiving member's slot. */
  deliver(p: Packet<Message, MemberSlot>): void {
    p.extra.peer?.step(p.arg);
  }

  /** A message to a dead member is lost; raft retries on its own ticks. */
  refused(): void {}

  /** The message type, and for an append the type of each entry it carries ('empty' for a new term's). */
  label(p: Packet<Message, MemberSlot>): WireLabel {
    const m = p.arg;
    if (m.entries.length === 0) return { kind: m.type };
    return { kind: m.type, carries: m.entries.map(entryKind) };
  }

  private member(name: string): MemberSlot {
    let m = this.members.get(name);
    if (m === undefined) {
      m = new MemberSlot(name, this.members.size);
      this.members.set(name, m);
    }
    return m;
  }

  /** Looked up on the first message, so a peer may register before its endpoint is attached. */
  private endpoint(m: MemberSlot): Endpoint {
    m.endpoint ??= this.network.endpointOf(m.name);
    return m.endpoint;
  }
}

/** An entry's request type (LeaseGrant, Put, ...) as the server proposed it; raft itself does not read it. */
function entryKind(e: Entry): string {
  const d = e.data as { readonly type?: unknown } | null;
  return d === null || d === undefined ? 'empty' : typeof d.type === 'string' ? d.type : 'entry';
}

/** One member's way out: its messages leave without the transport looking the sender up each time. */
export class RaftOutbox {
  constructor(
    private readonly transport: RaftTransport,
    private readonly from: MemberSlot,
  ) {}

  send(m: Message): void {
    this.transport.sendFrom(this.from, m);
  }
}
