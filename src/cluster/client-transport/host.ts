import type { Network } from '../network/network.js';
import type { RpcError } from '../server/api.js';
import type { EtcdServer } from '../server/etcd-server.js';

/** What the in-process transport needs of the cluster: its network and its members' running servers. */
export interface ClusterHost {
  readonly network: Network;
  readonly names: readonly string[];
  /** The running server of a member; undefined while it is crashed. */
  server(name: string): EtcdServer | undefined;
}

/** A stream's connection broke (the member stopped serving it). */
export const connectionReset: RpcError = {
  code: 'Unavailable',
  name: 'ErrConnectionReset',
  message: 'transport is closing',
};

/** The member's host answered with a reset: its etcd process is dead. */
export const connectionRefused: RpcError = {
  code: 'Unavailable',
  name: 'ErrConnectionRefused',
  message: 'connection refused',
};
