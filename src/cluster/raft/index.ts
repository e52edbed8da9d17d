// A compact, tick-driven Raft modelled on etcd-io/raft as etcd 3.4/3.5 run it.
export { RaftNode, type ProposeResult, type RaftNodeOptions, type RaftRole, type SoftState } from './raft-node.js';
export { RaftStorage } from './storage.js';
export { RaftTransport, type RaftPeer } from './transport.js';
export { defaultRaftConfig, resolveRaftConfig, type RaftConfig, type ResolvedRaftConfig } from './config.js';
export type { Entry } from './entry.js';
export type { RaftLogView } from './log.js';
export { CAMPAIGN_TRANSFER, Message, type MessageType } from './messages.js';
export type { ReadIndexCallback } from './read-only.js';
