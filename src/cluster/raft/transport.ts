import type { Endpoint } from '../network/endpoint.js';
import { Packet, type Network, type PacketHandler } from '../network/network.js';
import type { Message } from './messages.js';

/** Whatever handles a member's raft messages: the RaftNode of its current incarnation. */
export interface RaftPeer {
  readonly id: string;
  step(m: Message): void;
}

/** The transport's one packet tag: `arg` is the Message, `extra` the receiving member's slot. */
const RAFT = 0;

/** A member as the transport knows it: the node of its current incarnation, and its endpoint once used. */
class MemberSlot {
  peer: RaftPeer | undefined = undefined;
  endpoint: Endpoint | undefined = undefined;
  constructor(readonly name: string) {}
}

/**
 * Carries raft messages as peer traffic, each as a packet this transport handles (no closure per
 * message). The receiver is looked up when the message arrives, so a member restarted with a new
 * RaftNode gets what reaches its new incarnation.
 */
export class RaftTransport implements PacketHandler {
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
    this.network.route(this.endpoint(from), this.endpoint(to), true, new Packet(this, RAFT, m, to));
  }

  deliver(p: Packet): void {
    (p.extra as MemberSlot).peer?.step(p.arg as Message);
  }

  /** A message to a dead member is lost; raft retries on its own ticks. */
  refused(): void {}

  private member(name: string): MemberSlot {
    let m = this.members.get(name);
    if (m === undefined) {
      m = new MemberSlot(name);
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
