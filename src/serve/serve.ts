/**
 * `lessor-sim serve`: the scenario's cluster on the virtual clock paced to the wall clock, each member an etcd
 * v3 gRPC endpoint. The pacing loop runs every event due by "now", then sleeps until the next event is due or
 * a request arrives; a request enters the simulation at the current virtual instant. Member faults are shown
 * on the wire by each member's Relay. This file and relay/grpc-server are the only ones reading wall time.
 */
import type * as grpc from '@grpc/grpc-js';
import { closeSync, openSync, writeSync } from 'node:fs';
import { startScenario, type RunOptions, type RunResult } from '../scenario/replay/runner.js';
import type { Scenario } from '../scenario/types.js';
import { CliError } from '../cli/errors.js';
import { EXIT } from '../cli/exit-codes.js';
import type { CliIO } from '../cli/io.js';
import { exitCodeOf } from '../cli/limits.js';
import { freePort, freePorts } from '../real-etcd/ports.js';
import { summary } from '../report/summary.js';
import { clusterIds } from './ids.js';
import type { Input, RecordHeader } from './inputs.js';
import { GrpcSink, startMemberServer, type Arrival } from './grpc-server.js';
import { Relay, type MemberWire } from './relay.js';
import { ServeSession } from './session.js';
import { PacingLag } from './lag.js';
import { etcdVersionOf } from './version.js';

export interface ServeOptions {
  /** Where clients connect: an address of this machine (loopback unless --listen says otherwise). */
  readonly host: string;
  /** Member i (1-based) listens on base + i; undefined: free ports chosen by the kernel. */
  readonly basePort: number | undefined;
  /** Write every input as a JSON line here. */
  readonly record: string | undefined;
  /** A scenario file was given (its duration ends the run), or the default cluster runs until stopped. */
  readonly fromFile: boolean;
  readonly run: RunOptions;
  /** Stops serving as SIGINT does (for callers that run serve in-process). */
  readonly stop?: AbortSignal;
  /** --debug: an unexpected error's stack trace too. */
  readonly debug?: boolean;
}

/** At most this long between two looks at the virtual clock, so the scenario's steps happen on time. */
const MAX_SLEEP_MS = 20;

/** Serves until the scenario's duration ends or SIGINT/SIGTERM; resolves to the exit code. */
export async function serve(scenario: Scenario, o: ServeOptions, io: CliIO): Promise<number> {
  const run = startScenario(scenario, o.run);
  run.advanceTo(0);
  const cluster = run.cluster;
  if (cluster === undefined || run.done) return finish(run.finish(), io, o.fromFile);
  const names = cluster.names;
  const ids = clusterIds(names);
  const sink = new GrpcSink();
  const profile = run.result().profile;

  let record: number | undefined;
  if (o.record !== undefined) {
    try {
      record = openSync(o.record, 'w');
    } catch (e) {
      throw new CliError(`--record: cannot write ${o.record} (${(e as NodeJS.ErrnoException).code})`, EXIT.usage);
    }
    const header: RecordHeader = {
      served: 1,
      scenario: o.fromFile ? scenario.file : null,
      name: scenario.name,
      seed: run.result().seed,
      profile,
    };
    writeSync(record, `${JSON.stringify(header)}\n`);
  }

  const lag = new PacingLag();
  const debug = o.debug === true;
  const t0 = performance.now();
  const wallUs = (): number => Math.floor((performance.now() - t0) * 1000);
  let stopped = false;
  let session: ServeSession | undefined;
  const pending: Arrival[] = [];
  /** An error inside the simulation while it served a call: serve ends with exit 4 at its next tick. */
  let internal: unknown;
  const enter = (a: Arrival): void => {
    if (stopped || internal !== undefined) return;
    if (session === undefined) return void pending.push(a);
    try {
      const t = pace();
      if (run.done) return;
      const input = { ...a, t } as Input;
      if (record !== undefined) writeSync(record, `${JSON.stringify(input)}\n`);
      session.apply(input);
    } catch (e) {
      internal = e;
    }
  };

  const servers: grpc.Server[] = [];
  const relays: Relay[] = [];
  const shutdown = (): void => {
    stopped = true;
    for (const r of relays) r.close();
    for (const s of servers) s.forceShutdown();
    if (record !== undefined) {
      writeSync(record, `${JSON.stringify({ t: run.now, kind: 'end' })}\n`);
      closeSync(record);
    }
    record = undefined;
  };
  let wireError: string | undefined;
  try {
    for (const [i, name] of names.entries()) {
      const { server, port } = await startMemberServer(name, sink, enter);
      servers.push(server);
      const relay = new Relay(o.host, o.basePort === undefined ? 0 : o.basePort + i + 1, port, (e) => {
        wireError = `${name}: cannot listen on ${o.host}:${relay.port} again after its restart (${e.code})`;
      });
      relays.push(relay);
      await relay.listen();
    }
  } catch (e) {
    shutdown();
    const err = e as NodeJS.ErrnoException;
    const port = relays.at(-1)?.port;
    if (err.code === 'EADDRINUSE' || err.code === 'EACCES' || err.code === 'EADDRNOTAVAIL')
      throw new CliError(
        `cannot listen on ${o.host}:${port} (${err.code}); choose another --port or --listen`,
        EXIT.usage,
      );
    throw e;
  }
  const urls = Object.fromEntries(names.map((n, i) => [n, `http://${hostForUrl(o.host)}:${relays[i]!.port}`]));
  const peers = await peerPorts(
    names.length,
    relays.map((r) => r.port),
  );
  const peerUrls = Object.fromEntries(names.map((n, i) => [n, `http://${hostForUrl(o.host)}:${peers[i]}`]));
  session = new ServeSession(cluster, ids, sink, { clientUrls: urls, peerUrls, version: etcdVersionOf(profile) });

  /** Runs the simulation up to the wall clock's instant and shows member faults on the wire; the instant. */
  function pace(): number {
    const wall = wallUs();
    const t = Math.max(wall, run.now);
    const due = cluster!.sched.peekTime();
    if (due !== undefined && due <= t) lag.add(wall - due);
    run.advanceTo(t);
    names.forEach((n, i) => {
      const p = cluster!.process(n);
      const wire: MemberWire = !p.alive ? 'down' : p.paused ? 'frozen' : 'up';
      relays[i]!.set(wire);
    });
    return run.now;
  }

  for (const n of names) io.out(`# ${n} ${urls[n]} member-id ${ids.memberId(n)}`);
  io.out(`export ETCDCTL_API=3`);
  io.out(`export ETCDCTL_ENDPOINTS=${names.map((n) => urls[n]).join(',')}`);
  io.out(
    `# ready: ${names.length} members, cluster-id ${ids.clusterId}, etcd ${etcdVersionOf(profile)} API, ` +
      (o.fromFile
        ? `until the scenario ends at ${scenario.durationUs / 1e6} s of virtual time`
        : 'until SIGINT or SIGTERM') +
      (o.record !== undefined ? `; recording to ${o.record}` : ''),
  );
  for (const a of pending.splice(0)) enter(a);

  return new Promise<number>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    const end = (code: number): void => {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      o.stop?.removeEventListener('abort', onAbort);
      shutdown();
      const l = lag.summary();
      if (l !== undefined) io.err(`lessor-sim serve: ${l}`);
      resolve(code);
    };
    const onSignal = (sig: NodeJS.Signals): void => {
      if (closed) return;
      pace();
      io.err(`lessor-sim serve: ${sig} at ${(run.now / 1e6).toFixed(3)} s of virtual time; stopping`);
      end(finish(run.done ? run.finish() : run.result(), io, o.fromFile));
    };
    const onAbort = (): void => onSignal('SIGINT');
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    o.stop?.addEventListener('abort', onAbort);
    const tick = (): void => {
      timer = undefined;
      try {
        if (internal === undefined) pace();
      } catch (e) {
        internal = e;
      }
      if (internal !== undefined) {
        const e = internal;
        io.err(
          `lessor-sim serve: unexpected error inside lessor-sim (a bug): ${e instanceof Error ? e.message : String(e)}`,
        );
        if (debug && e instanceof Error && e.stack !== undefined) io.err(e.stack);
        return end(EXIT.internal);
      }
      if (wireError !== undefined) {
        io.err(`lessor-sim serve: ${wireError}`);
        return end(EXIT.usage);
      }
      if (run.done) return end(finish(run.finish(), io, o.fromFile));
      const next = cluster.sched.peekTime();
      const ms = next === undefined ? MAX_SLEEP_MS : Math.min(MAX_SLEEP_MS, Math.max(0, (next - wallUs()) / 1000));
      timer = setTimeout(tick, ms);
    };
    tick();
  });
}

/**
 * The verdicts (as `run` prints them, with the trace hash a replay of the record reproduces) and run's exit
 * code; 0 for the default cluster, which has nothing to judge.
 */
function finish(r: RunResult, io: CliIO, fromFile: boolean): number {
  for (const line of summary(r)) io.out(line);
  return !fromFile && r.setupError === undefined ? EXIT.ok : exitCodeOf([r]);
}

/**
 * Ports for the peer URLs MemberList advertises, one per member as etcd has, unused when chosen and apart
 * from the client ports. Nothing listens on them: the simulated members talk over the simulated network.
 */
const peerPorts = (count: number, taken: readonly number[]): Promise<number[]> =>
  freePorts(count, async () => {
    let p = await freePort();
    while (taken.includes(p)) p = await freePort();
    return p;
  });

const hostForUrl = (host: string): string => (host.includes(':') ? `[${host}]` : host);
