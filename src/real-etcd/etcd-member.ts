/**
 * One real etcd 3.4 process on 127.0.0.1: its flags, and the signals the scenario's faults become
 * (pause → SIGSTOP, resume → SIGCONT, crash → SIGKILL, restart → the same command on the same data dir).
 */
import { join } from 'node:path';
import type { Child, ChildRegistry } from './children.js';
import { EtcdRpc } from './etcd-rpc.js';

/** Flags every member of one cluster shares; mapped from the scenario's `cluster:` block. */
export interface ClusterFlags {
  readonly heartbeatMs: number;
  readonly electionMs: number;
  readonly leaseCheckpoint: boolean;
  readonly leaseCheckpointPersist: boolean;
  readonly preVote: boolean;
  /** --snapshot-count; etcd's default when absent. */
  readonly snapshotCount?: number;
  /** --initial-election-tick-advance; etcd's default (true) when absent. */
  readonly initialElectionTickAdvance?: boolean;
}

export interface MemberAddress {
  readonly name: string;
  readonly clientPort: number;
  readonly peerPort: number;
}

const url = (port: number): string => `http://127.0.0.1:${port}`;

export class EtcdMember {
  readonly rpc: EtcdRpc;
  child: Child | undefined;
  paused = false;
  /** Raft member ID, learned from Status once the cluster is up. */
  id = 0n;

  constructor(
    readonly address: MemberAddress,
    private readonly args: readonly string[],
  ) {
    this.rpc = new EtcdRpc(`127.0.0.1:${address.clientPort}`);
  }

  get name(): string {
    return this.address.name;
  }

  get clientUrl(): string {
    return url(this.address.clientPort);
  }

  /** Started and not crashed (it may be paused). */
  get running(): boolean {
    return this.child?.running === true;
  }

  /** Running and not paused: it can answer. */
  get answering(): boolean {
    return this.running && !this.paused;
  }

  async start(registry: ChildRegistry, etcd: string): Promise<void> {
    this.child = await registry.spawn(`etcd ${this.name}`, etcd, this.args, undefined, true);
    this.paused = false;
  }

  pause(registry: ChildRegistry): void {
    if (this.child !== undefined && registry.signal(this.child, 'SIGSTOP')) this.paused = true;
  }

  resume(registry: ChildRegistry): void {
    if (this.child !== undefined && registry.signal(this.child, 'SIGCONT')) this.paused = false;
  }

  async crash(registry: ChildRegistry): Promise<void> {
    if (this.child !== undefined) await registry.kill(this.child);
    this.paused = false;
  }
}

/** The command line of each member of a new cluster; a restart reuses it (etcd then ignores the
 * --initial-* flags because the data dir already holds a member). */
export function memberArgs(
  addrs: readonly MemberAddress[],
  flags: ClusterFlags,
  dataRoot: string,
  token: string,
): string[][] {
  const initialCluster = addrs.map((a) => `${a.name}=${url(a.peerPort)}`).join(',');
  return addrs.map((a) => [
    `--name=${a.name}`,
    `--data-dir=${join(dataRoot, a.name)}`,
    `--listen-client-urls=${url(a.clientPort)}`,
    `--advertise-client-urls=${url(a.clientPort)}`,
    `--listen-peer-urls=${url(a.peerPort)}`,
    `--initial-advertise-peer-urls=${url(a.peerPort)}`,
    `--initial-cluster=${initialCluster}`,
    '--initial-cluster-state=new',
    `--initial-cluster-token=${token}`,
    `--heartbeat-interval=${flags.heartbeatMs}`,
    `--election-timeout=${flags.electionMs}`,
    ...(flags.leaseCheckpoint ? ['--experimental-enable-lease-checkpoint'] : []),
    ...(flags.leaseCheckpointPersist ? ['--experimental-enable-lease-checkpoint-persist'] : []),
    ...(flags.preVote ? ['--pre-vote'] : []),
    ...(flags.snapshotCount !== undefined ? [`--snapshot-count=${flags.snapshotCount}`] : []),
    ...(flags.initialElectionTickAdvance === false ? ['--initial-election-tick-advance=false'] : []),
    // Warnings and errors only, as JSON lines on stderr: the driver keeps the last ones for messages.
    '--logger=zap',
    '--log-outputs=stderr',
    '--log-level=warn',
  ]);
}
