/**
 * A client's keep-alive as its own process, `etcdctl lease keep-alive <hex id>` as in the runbook, so
 * that pausing the client is a real SIGSTOP of a real clientv3 keep-alive loop (TTL/3 cadence, 500 ms
 * send loop, deadline loop). Each "keepalived with TTL(n)" line is a renewal the client received; the
 * process exits when clientv3 closes the channel (lease expired or revoked), which is what `alive` reads.
 */
import type { EtcdBinaries } from './binaries.js';
import type { Child, ChildRegistry } from './children.js';

const RENEWED = /^lease ([0-9a-f]+) keepalived with TTL\((-?\d+)\)/;

export class KeepAliveChild {
  private constructor(
    private readonly child: Child,
    private readonly registry: ChildRegistry,
  ) {}

  /** Starts the child against one member (the client's endpoint); `onRenew` gets each renewal's TTL. */
  static async start(
    registry: ChildRegistry,
    bins: EtcdBinaries,
    endpoint: string,
    leaseId: bigint,
    name: string,
    onRenew: (ttl: number) => void,
  ): Promise<KeepAliveChild> {
    const child = await registry.spawn(name, bins.etcdctl, [
      `--endpoints=${endpoint}`,
      'lease',
      'keep-alive',
      BigInt.asUintN(64, leaseId).toString(16),
    ]);
    child.onLine((line) => {
      const m = RENEWED.exec(line);
      if (m !== null) onRenew(Number(m[2]));
    });
    return new KeepAliveChild(child, registry);
  }

  /** The channel is open: the process has not exited (a stopped process still holds it open). */
  get alive(): boolean {
    return this.child.running;
  }

  pause(): void {
    this.registry.signal(this.child, 'SIGSTOP');
  }

  resume(): void {
    this.registry.signal(this.child, 'SIGCONT');
  }

  /** keepalive-stop: the client cancels; ending the process closes its stream just the same. */
  stop(): Promise<void> {
    return this.registry.kill(this.child);
  }
}
