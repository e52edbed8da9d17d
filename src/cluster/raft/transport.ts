import type { Network } from '../network/network.js';
import type { Message } from './messages.js';

/** Whatever handles a member's raft messages: the RaftNode of its current incarnation. */
export interface RaftPeer {
  readonly id: string;
  step(m: Message): void;
}

/**
 * Carries raft messages as peer traffic. The receiver is looked up when the message arrives, so a member
 * restarted with a new RaftNode gets what reaches its new incarnation.
 */
export class RaftTransport {
  private readonly peers = new Map<string, RaftPeer>();

  constructor(private readonly network: Network) {}

  /** Makes `peer` the receiver of messages for its id (replacing an earlier incarnation's node). */
  register(peer: RaftPeer): void {
    this.peers.set(peer.id, peer);
  }

  send(m: Message): void {
    this.network.send(m.from, m.to, 'peer', () => this.peers.get(m.to)?.step(m));
  }
}
