import { Packet, type Network, type PacketHandler } from '../network/network.js';
import type { Message } from './messages.js';

/** Whatever handles a member's raft messages: the RaftNode of its current incarnation. */
export interface RaftPeer {
  readonly id: string;
  step(m: Message): void;
}

/** The transport's one packet tag: `arg` is the Message. */
const RAFT = 0;

/**
 * Carries raft messages as peer traffic, each as a packet this transport handles (no closure per
 * message). The receiver is looked up when the message arrives, so a member restarted with a new
 * RaftNode gets what reaches its new incarnation.
 */
export class RaftTransport implements PacketHandler {
  private readonly peers = new Map<string, RaftPeer>();

  constructor(private readonly network: Network) {}

  /** Makes `peer` the receiver of messages for its id (replacing an earlier incarnation's node). */
  register(peer: RaftPeer): void {
    this.peers.set(peer.id, peer);
  }

  send(m: Message): void {
    this.network.transmit(m.from, m.to, 'peer', new Packet(this, RAFT, m));
  }

  deliver(p: Packet): void {
    const m = p.arg as Message;
    this.peers.get(m.to)?.step(m);
  }

  /** A message to a dead member is lost; raft retries on its own ticks. */
  refused(): void {}
}
