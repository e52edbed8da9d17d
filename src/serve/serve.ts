/**
 * `lessor-sim serve`: the scenario's cluster on the virtual clock paced to the wall clock, each member an etcd
 * v3 gRPC endpoint. The pacing loop runs every event due by "now", then sleeps until the next event is due or
 * a request arrives; a request enters the simulation at the current virtual instant. Member faults are shown
 * on the wire by each member's Relay. This file and relay/grpc-server are the only ones reading wall time.
 */
import type * as grpc from '@grpc/grpc-js';
import { closeSync, openSync, writeSync } from 'node:fs';
import { AppStartError, type AppExit, type AppLine } from '../apps/app-runner.js';
import type { AppJudgement } from '../apps/judge.js';
import type { Fence } from '../apps/resource-server.js';
import { appVerdict, type AppVerdict } from '../cli/app-verdict.js';
import { actOnApps, appStepsOf } from '../scenario/replay/app-hook.js';
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
import type { LiveView } from './live/live-view.js';
import { AppTruth } from '../apps/app-truth.js';
import { Trace } from '../trace/trace.js';
import { appInput, NOT_YET } from './app-inputs.js';
import { type AppCommand, ServedApps } from './served-apps.js';
import { appVerdictLines } from './app-report.js';

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
  /** --playground: the live view of the served cluster (src/serve/live/). */
  readonly live?: LiveView;
  /** Programs under test, started once the cluster is up (serve FILE -- CMD, --app NAME=CMD). */
  readonly apps?: readonly AppCommand[];
  /** The fenced resource's rule for the programs' writes (default `lower`). */
  readonly fence?: Fence;
  /** Each program's output line as it arrives (default: printed on stdout). */
  readonly onAppLine?: (line: AppLine) => void;
}

/** What a served run came to: its exit code, the replay's result, and with programs, their verdict. */
export interface ServeOutcome {
  readonly code: number;
  readonly result: RunResult;
  readonly apps?: AppsOutcome;
}

export interface AppsOutcome {
  readonly verdict: AppVerdict;
  /** Each program's last exit (`byHarness`: still running at the end, or killed by a step). */
  readonly exits: readonly AppExit[];
  /** The holder monitors' findings, one judgement per lock key the programs named. */
  readonly judgements: readonly AppJudgement[];
}

/** At most this long between two looks at the virtual clock, so the scenario's steps happen on time. */
const MAX_SLEEP_MS = 20;

/** Serves until the scenario's duration ends or SIGINT/SIGTERM; resolves to the exit code. */
export async function serve(scenario: Scenario, o: ServeOptions, io: CliIO): Promise<number> {
  return (await serveOutcome(scenario, o, io)).code;
}

/**
 * `serve` with its outcome: the exit code, the replay's result and, with programs under test, their exits
 * and the holder monitors' findings. Ends at the scenario's duration, on SIGINT/SIGTERM (or `o.stop`), or
 * once every program has exited (the rest of the scenario then runs at once: no client is left to pace for).
 */
export async function serveOutcome(scenario: Scenario, o: ServeOptions, io: CliIO): Promise<ServeOutcome> {
  const appCommands = o.apps ?? [];
  checkAppSteps(scenario, appCommands);
  let apps: ServedApps | undefined;
  let record: number | undefined;
  const run = startScenario(scenario, {
    ...o.run,
    ...(o.live !== undefined ? { observer: o.live.observer } : {}),
    onCluster: (c) => {
      o.run.onCluster?.(c);
      if (appCommands.length === 0) return;
      actOnApps(c, (a) => {
        const why = apps === undefined ? NOT_YET : apps.act(a);
        if (record !== undefined) {
          const input: Input = { t: c.now(), kind: 'app-step', app: a.app, ...(why !== undefined ? { why } : {}) };
          writeSync(record, `${JSON.stringify(input)}\n`);
        }
        return why;
      });
    },
  });
  // The programs' events: recorded as inputs (a replay feeds them back), then into the run's trace, where
  // AppTruth derives when each program's lease really ended.
  const appTrace = new Trace(true, false, false);
  if (appCommands.length > 0) {
    new AppTruth(run.trace);
    appTrace.subscribe((e) => {
      if (record !== undefined) writeSync(record, `${JSON.stringify(appInput(e))}\n`);
      run.trace.emit(e);
    });
  }
  run.advanceTo(0);
  const cluster = run.cluster;
  if (cluster === undefined || run.done) {
    const r = run.finish();
    return { code: finish(r, io, o.fromFile), result: r };
  }
  const names = cluster.names;
  const ids = clusterIds(names);
  const sink = new GrpcSink();
  const profile = run.result().profile;

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
  const upstreams: number[] = [];
  const relays: Relay[] = [];
  const shutdown = (): void => {
    stopped = true;
    o.live?.close();
    for (const r of relays) r.close();
    for (const s of servers) s.forceShutdown();
    if (record !== undefined) {
      writeSync(record, `${JSON.stringify({ t: run.now, kind: 'end' })}\n`);
      closeSync(record);
    }
    record = undefined;
  };
  let wireError: string | undefined;
  let liveUrl: string | undefined;
  try {
    liveUrl = await o.live?.listen();
    for (const [i, name] of names.entries()) {
      const { server, port } = await startMemberServer(name, sink, enter);
      servers.push(server);
      upstreams.push(port);
      const relay = new Relay(o.host, o.basePort === undefined ? 0 : o.basePort + i + 1, port, (e) => {
        wireError = `${name}: cannot listen on ${o.host}:${relay.port} again after its restart (${e.code})`;
      });
      relays.push(relay);
      await relay.listen();
    }
  } catch (e) {
    shutdown();
    if (e instanceof CliError) throw e;
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
  o.live?.attach({
    run,
    endpoints: urls,
    endUs: o.fromFile ? scenario.durationUs : undefined,
    tickUs: scenario.cluster.heartbeatUs,
    inject: (f) => enter({ kind: 'fault', ...f }),
  });

  let pacing = false;
  /** Runs the simulation up to the wall clock's instant and shows member faults on the wire; the instant. */
  function pace(): number {
    // Never inside the simulation's own run (a trace listener, an app step): it is at its instant already.
    if (pacing) return run.now;
    pacing = true;
    try {
      return paceNow();
    } finally {
      pacing = false;
    }
  }
  function paceNow(): number {
    const wall = wallUs();
    const t = Math.max(wall, run.now);
    const due = cluster!.sched.peekTime();
    if (due !== undefined && due <= t) lag.add(wall - due);
    run.advanceTo(t);
    const wires = names.map((n): MemberWire => {
      const p = cluster!.process(n);
      return !p.alive ? 'down' : p.paused ? 'frozen' : 'up';
    });
    for (const [i, w] of wires.entries()) relays[i]!.set(w);
    apps?.setWires(wires);
    return run.now;
  }
  /** The virtual instant for an event from outside the simulation (a program's write, line or exit). */
  const nowForApps = (): number => {
    try {
      return pace();
    } catch (e) {
      internal ??= e;
      return run.now;
    }
  };

  for (const n of names) io.out(`# ${n} ${urls[n]} member-id ${ids.memberId(n)}`);
  io.out(`export ETCDCTL_API=3`);
  io.out(`export ETCDCTL_ENDPOINTS=${names.map((n) => urls[n]).join(',')}`);
  if (liveUrl !== undefined) io.out(`# playground: the live view at ${liveUrl}`);
  io.out(
    `# ready: ${names.length} members, cluster-id ${ids.clusterId}, etcd ${etcdVersionOf(profile)} API, ` +
      (o.fromFile
        ? `until the scenario ends at ${scenario.durationUs / 1e6} s of virtual time`
        : 'until SIGINT or SIGTERM') +
      (o.record !== undefined ? `; recording to ${o.record}` : ''),
  );
  for (const a of pending.splice(0)) enter(a);

  if (appCommands.length > 0) {
    apps = new ServedApps({
      trace: appTrace,
      now: nowForApps,
      ...(o.fence !== undefined ? { fence: o.fence } : {}),
      host: o.host,
      members: names.map((name, i) => ({ name, upstreamPort: upstreams[i]! })),
      onLine: o.onAppLine ?? ((l) => io.out(appLine(l))),
      onWireError: (m) => {
        wireError ??= m;
      },
    });
    try {
      await apps.start(appCommands);
    } catch (e) {
      await apps.close();
      shutdown();
      if (e instanceof AppStartError) throw new CliError(e.message, EXIT.usage);
      throw e;
    }
    for (const n of apps.names) io.out(`# app ${n}: ${apps.commands.get(n)}`);
  }

  const outcome = await new Promise<{ code: number; result: RunResult; stopped: boolean }>((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let closed = false;
    const end = (code: number, result: RunResult, stopped = false): void => {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
      o.stop?.removeEventListener('abort', onAbort);
      resolve({ code, result, stopped });
    };
    const onSignal = (sig: NodeJS.Signals): void => {
      if (closed) return;
      pace();
      io.err(`lessor-sim serve: ${sig} at ${(run.now / 1e6).toFixed(3)} s of virtual time; stopping`);
      end(-1, run.done ? run.finish() : run.result(), true);
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
        return end(EXIT.internal, run.result());
      }
      if (wireError !== undefined) {
        io.err(`lessor-sim serve: ${wireError}`);
        return end(EXIT.usage, run.result());
      }
      if (run.done) return end(-1, run.finish());
      if (apps?.allExited === true) {
        io.err(
          `lessor-sim serve: every program has exited at ${(run.now / 1e6).toFixed(3)} s of virtual time; ` +
            'the rest of the scenario runs at once',
        );
        return end(-1, run.finish());
      }
      const next = cluster.sched.peekTime();
      const ms = next === undefined ? MAX_SLEEP_MS : Math.min(MAX_SLEEP_MS, Math.max(0, (next - wallUs()) / 1000));
      timer = setTimeout(tick, ms);
    };
    tick();
  });

  // Programs still running end now; their exits (and the holder stops they imply) land in the trace first.
  const exits = apps === undefined ? [] : await apps.finish();
  if (apps !== undefined) await apps.close();
  shutdown();
  const l = lag.summary();
  if (l !== undefined) io.err(`lessor-sim serve: ${l}`);
  const result = outcome.result;
  if (outcome.code >= 0) return { code: outcome.code, result };
  const runCode = finish(result, io, o.fromFile);
  if (apps === undefined) return { code: runCode, result };
  const judgements = apps.judge(run.trace.events, run.now);
  const verdict = appVerdict({
    expectsPassed:
      result.setupError === undefined &&
      (result.holderErrors ?? []).length === 0 &&
      result.assertions.every((a) => a.passed),
    violations: judgements.reduce((n, j) => n + j.violations.length, 0),
    exits,
    stopped: outcome.stopped || result.stopped !== undefined,
  });
  for (const line of appVerdictLines(apps.names, exits, judgements, verdict, run.trace.events)) io.out(line);
  return { code: verdict.code, result, apps: { verdict, exits, judgements } };
}

/** A program's output line as serve prints it: virtual seconds, its name, `|` for stdout, `!` for stderr. */
const appLine = (l: AppLine): string =>
  `${(l.t / 1e6).toFixed(3)} ${l.app} ${l.stream === 'stdout' ? '|' : '!'} ${l.text}`;

/** Every step on a program names one that runs: else the file and the command line disagree (exit 2). */
function checkAppSteps(scenario: Scenario, apps: readonly AppCommand[]): void {
  const names = new Set(apps.map((a) => a.name));
  for (const { step, app } of appStepsOf(scenario)) {
    if (names.has(app)) continue;
    const given = apps.length === 0 ? 'no program was given' : `programs: ${[...names].join(', ')}`;
    throw new CliError(
      `${scenario.file}:${step.pos.line}:${step.pos.col}: ${step.kind} names program ${app}, ` +
        `but ${given}; run it with lessor-sim serve FILE -- CMD, or name it with --app ${app}=CMD`,
      EXIT.usage,
    );
  }
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
