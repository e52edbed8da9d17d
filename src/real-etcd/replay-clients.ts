/**
 * The scenario's client processes on the real side: each client's keep-alives are `etcdctl lease
 * keep-alive` children given one endpoint, the client's first step's `via`, else n1 (etcdctl 3.4 picks
 * among several endpoints in random order); `diff` runs the simulation's clients with that one endpoint
 * too (RunOptions.clientEndpoints), so neither side fails over where the other cannot. Pausing a client
 * SIGSTOPs all of them; a keep-alive started while paused starts frozen, as
 * the simulation defers a paused client's work until it resumes.
 */
import type { EtcdBinaries } from './binaries.js';
import type { ChildRegistry } from './children.js';
import type { EtcdCluster } from './etcd-cluster.js';
import { KeepAliveChild } from './keepalive-child.js';

export class ReplayClients {
  private readonly keepAlives = new Map<string, KeepAliveChild>();
  private readonly member = new Map<string, string>();
  private readonly paused = new Set<string>();

  constructor(
    private readonly cluster: EtcdCluster,
    private readonly registry: ChildRegistry,
    private readonly bins: EtcdBinaries,
    /** Each renewal a client's keep-alive receives. */
    private readonly onRenew: (client: string, label: string, ttl: number) => void,
  ) {}

  /** keepalive: (re)starts the client's keep-alive for the lease. */
  async start(client: string, label: string, id: bigint, via: string | undefined): Promise<void> {
    await this.stop(client, label);
    if (!this.member.has(client)) this.member.set(client, via ?? 'n1');
    const m = this.cluster.member(this.member.get(client)!);
    const ka = await KeepAliveChild.start(
      this.registry,
      this.bins,
      m.clientUrl,
      id,
      `etcdctl keep-alive ${label} (${client})`,
      (ttl) => this.onRenew(client, label, ttl),
    );
    if (this.paused.has(client)) ka.pause();
    this.keepAlives.set(`${client} ${label}`, ka);
  }

  /** keepalive-stop: the client cancels (its process ends, closing the stream). */
  async stop(client: string, label: string): Promise<void> {
    await this.keepAlives.get(`${client} ${label}`)?.stop();
  }

  /** client-close: every keep-alive of the client ends. */
  async close(client: string): Promise<void> {
    await Promise.allSettled(this.of(client).map((k) => k.stop()));
  }

  pause(client: string): void {
    this.paused.add(client);
    for (const ka of this.of(client)) ka.pause();
  }

  resume(client: string): void {
    this.paused.delete(client);
    for (const ka of this.of(client)) ka.resume();
  }

  /** Whether the keep-alive channel is open; undefined if the client never started one for the lease. */
  alive(client: string, label: string): boolean | undefined {
    return this.keepAlives.get(`${client} ${label}`)?.alive;
  }

  async stopAll(): Promise<void> {
    await Promise.allSettled([...this.keepAlives.values()].map((k) => k.stop()));
  }

  private of(client: string): KeepAliveChild[] {
    return [...this.keepAlives.entries()].filter(([k]) => k.startsWith(`${client} `)).map(([, v]) => v);
  }
}
