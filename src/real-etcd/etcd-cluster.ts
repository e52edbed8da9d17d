/**
 * A real etcd cluster on 127.0.0.1 for one scenario: free ports picked at run time, one data dir per
 * member under os.tmpdir(), n1 made leader before time 0 (elect whoever wins, then `etcdctl move-leader`
 * to n1). Every failure to get there is one DriverError, and the caller's ChildRegistry ends whatever
 * was started.
 */
import type { EtcdBinaries } from './binaries.js';
import type { ChildRegistry } from './children.js';
import { EtcdMember, memberArgs, type ClusterFlags, type MemberAddress } from './etcd-member.js';
import { DriverError } from './errors.js';
import { freePorts, type PortPicker } from './ports.js';
import { nowUs, sleepMs } from './wall-clock.js';

export interface ClusterStartOptions {
  readonly members: number;
  readonly flags: ClusterFlags;
  readonly binaries: EtcdBinaries;
  readonly registry: ChildRegistry;
  readonly pickPort?: PortPicker;
  /** How long the members get to elect a leader; default max(15 s, 20 election timeouts). */
  readonly leaderTimeoutMs?: number;
  /** Progress lines (ports retried, leader moved). */
  readonly log?: (line: string) => void;
}

const PORT_ATTEMPTS = 3;
/** A Status that takes longer than this counts as no answer while polling. */
const POLL_STATUS_MS = 500;

/** A grant and a revoke through each member within this count as settled (two quick commits). */
const SETTLED_US = 100_000;
const SETTLE_MAX_US = 5_000_000;

class PortInUse extends Error {}

/** "msg: error" of a zap JSON log line, or the line itself. */
function logMessage(line: string): string {
  try {
    const j = JSON.parse(line) as { msg?: string; error?: string };
    return [j.msg, j.error].filter((x) => x !== undefined).join(': ');
  } catch {
    return line;
  }
}

export class EtcdCluster {
  private constructor(
    readonly members: readonly EtcdMember[],
    private readonly opts: ClusterStartOptions,
  ) {}

  /** Starts the cluster and makes n1 its leader; retries with fresh ports if one was taken meanwhile. */
  static async start(opts: ClusterStartOptions): Promise<EtcdCluster> {
    const log = opts.log ?? (() => {});
    for (let attempt = 1; ; attempt++) {
      const ports = await freePorts(2 * opts.members, opts.pickPort);
      const addrs: MemberAddress[] = Array.from({ length: opts.members }, (_, i) => ({
        name: `n${i + 1}`,
        clientPort: ports[2 * i]!,
        peerPort: ports[2 * i + 1]!,
      }));
      const root = opts.registry.tempDir('lessor-sim-diff-');
      const token = `lessor-sim-${process.pid}-${attempt}`;
      const args = memberArgs(addrs, opts.flags, root, token);
      const cluster = new EtcdCluster(
        addrs.map((a, i) => new EtcdMember(a, args[i]!)),
        opts,
      );
      try {
        for (const m of cluster.members) await m.start(opts.registry, opts.binaries.etcd);
        await cluster.awaitLeader(opts.leaderTimeoutMs ?? Math.max(15_000, 20 * opts.flags.electionMs));
        const why = await cluster.makeLeader(cluster.members[0]!);
        if (why !== undefined) throw new DriverError(`could not make n1 the leader before time 0: ${why}`);
        await cluster.settle();
        return cluster;
      } catch (e) {
        await cluster.stop();
        if (!(e instanceof PortInUse) || attempt >= PORT_ATTEMPTS)
          throw e instanceof PortInUse ? new DriverError(e.message) : e;
        log(`${e.message}; retrying with other ports`);
      }
    }
  }

  member(name: string): EtcdMember {
    const m = this.members.find((x) => x.name === name);
    if (m === undefined) throw new Error(`no member ${name}`);
    return m;
  }

  /** Waits until every member answers Status and they agree on a leader; learns member IDs. */
  private async awaitLeader(timeoutMs: number): Promise<void> {
    const deadline = nowUs() + timeoutMs * 1000;
    let answering = 0;
    for (;;) {
      for (const m of this.members) {
        if (m.running) continue;
        const lines = m.child?.lastLines(20) ?? [];
        const busy = lines.find((l) => l.includes('address already in use'));
        if (busy !== undefined) throw new PortInUse(`etcd member ${m.name}: ${logMessage(busy)}`);
        const last =
          lines
            .filter((l) => l.trim() !== '')
            .map(logMessage)
            .at(-1) ?? 'no output';
        throw new DriverError(
          `etcd member ${m.name} failed to start (${m.child?.describeExit() ?? 'not started'}): ${last}`,
        );
      }
      const st = await Promise.all(this.members.map((m) => m.rpc.status(POLL_STATUS_MS).catch(() => undefined)));
      answering = st.filter((s) => s !== undefined).length;
      const leaders = new Set(st.map((s) => s?.leader ?? 0n));
      if (answering === this.members.length && leaders.size === 1 && !leaders.has(0n)) {
        st.forEach((s, i) => {
          this.members[i]!.id = s!.memberId;
        });
        return;
      }
      if (nowUs() > deadline) {
        throw new DriverError(
          `the etcd cluster elected no leader within ${(timeoutMs / 1000).toFixed(0)}` +
            ` s (${answering} of ${this.members.length} members answering)`,
        );
      }
      await sleepMs(100);
    }
  }

  /**
   * Commits through every member until commits are quick. A fresh cluster's first fsyncs (WAL files
   * being preallocated, the previous run's files being freed) stalled for up to 0.5 s on this host,
   * which would otherwise land on the scenario's first steps. A lease with no keys, granted and
   * revoked, leaves nothing a scenario can see: no revision, no lease.
   */
  private async settle(): Promise<void> {
    const deadline = nowUs() + SETTLE_MAX_US;
    for (;;) {
      let slowest = 0;
      for (const m of this.members) {
        const t = nowUs();
        const { id } = await m.rpc.leaseGrant(60, 0n);
        await m.rpc.leaseRevoke(id);
        slowest = Math.max(slowest, nowUs() - t);
      }
      if (slowest < SETTLED_US || nowUs() > deadline) return;
      await sleepMs(100);
    }
  }

  /** The member the answering members report as leader, if it is running. */
  async leader(timeoutMs = 1000): Promise<EtcdMember | undefined> {
    const up = this.members.filter((m) => m.answering);
    const st = await Promise.all(up.map((m) => m.rpc.status(timeoutMs).catch(() => undefined)));
    // A member that says it leads is believed first; else the most reported leader.
    const self = st.find((s) => s !== undefined && s.leader === s.memberId);
    const votes = new Map<bigint, number>();
    for (const s of st) if (s !== undefined && s.leader !== 0n) votes.set(s.leader, (votes.get(s.leader) ?? 0) + 1);
    const id = self?.leader ?? [...votes.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
    const m = this.members.find((x) => x.id === id);
    return m?.running === true ? m : undefined;
  }

  /**
   * `etcdctl move-leader` to `to`, sent to the current leader as etcdctl requires; then waits until `to`
   * reports itself leader and has served a linearizable read (so it has applied its first entry of the
   * term, which is when etcd promotes its lessor). Returns why it failed, or undefined.
   */
  async makeLeader(to: EtcdMember): Promise<string | undefined> {
    const from = await this.leader();
    if (from === undefined) return 'there is no leader to transfer from';
    if (from !== to) {
      const ctl = await this.opts.registry.spawn('etcdctl move-leader', this.opts.binaries.etcdctl, [
        `--endpoints=${from.clientUrl}`,
        'move-leader',
        to.id.toString(16),
      ]);
      const exit = await ctl.exited;
      if (exit.code !== 0) return `etcdctl move-leader failed (${ctl.describeExit()}): ${ctl.lastLines(3).join(' ')}`;
      this.opts.log?.(`moved leadership from ${from.name} to ${to.name}`);
    }
    const deadline = nowUs() + 10_000_000;
    while (nowUs() < deadline) {
      const s = await to.rpc.status(POLL_STATUS_MS).catch(() => undefined);
      if (
        s?.leader === to.id &&
        (await to.rpc.range('lessor-sim/ready', false, POLL_STATUS_MS).catch(() => undefined)) !== undefined
      )
        return undefined;
      await sleepMs(50);
    }
    throw new DriverError(`${to.name} did not take over leadership within 10 s`);
  }

  async crash(name: string): Promise<void> {
    await this.member(name).crash(this.opts.registry);
  }

  /** Starts a crashed member again on its data dir; does not wait for it to rejoin. */
  async restart(name: string): Promise<string | undefined> {
    const m = this.member(name);
    if (m.running) return `${name} is running; only a crashed member can restart`;
    await m.start(this.opts.registry, this.opts.binaries.etcd);
    return undefined;
  }

  pause(name: string): void {
    this.member(name).pause(this.opts.registry);
  }

  resume(name: string): void {
    this.member(name).resume(this.opts.registry);
  }

  /** Ends every member (SIGKILL by PID) and closes the gRPC channels; the registry removes the dirs. */
  async stop(): Promise<void> {
    for (const m of this.members) m.rpc.close();
    await Promise.allSettled(this.members.map((m) => m.crash(this.opts.registry)));
  }
}
