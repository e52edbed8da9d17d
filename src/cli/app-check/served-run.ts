/**
 * One run of a campaign: the schedule's cluster served by `serve` on free loopback ports (its member faults
 * as scenario steps at their virtual instants), the programs started beside it by an AppSession, the app
 * stalls performed at their instants (serve's virtual clock is paced to the wall clock from its start, so
 * the wall clock since then is that instant), and the verdict of the holder monitors. The truth of when a
 * lease ended comes from what a client sees: a watch on every member, a lock key's deletion.
 */
import { AppSession } from '../../apps/app-session.js';
import type { AppExit, AppLine } from '../../apps/app-runner.js';
import { wallTimer } from '../../apps/app-steps.js';
import { judgeApps, type KeyDeletion, revocationsFromDeletions } from '../../apps/judge.js';
import type { Micros } from '../../clock/time.js';
import type { Violation } from '../../properties/index.js';
import { parseScenario } from '../../scenario/parse.js';
import { serve } from '../../serve/serve.js';
import { Trace } from '../../trace/trace.js';
import { EtcdRpc } from '../differential/etcd-rpc.js';
import { bufferIO } from '../io.js';
import { clusterScenarioText, type Schedule } from './schedule.js';

export interface AppUnderTest {
  readonly name: string;
  /** A shell command line, run by /bin/sh -c in its own process group. */
  readonly command: string;
}

export interface RunOutcome {
  readonly violations: readonly Violation[];
  readonly exits: readonly AppExit[];
  readonly lines: readonly AppLine[];
  /** Steps that could not act (a program that had already exited), in words. */
  readonly skipped: readonly string[];
  readonly wallMs: number;
}

const wallUsSince = (t0: number): Micros => Math.floor((performance.now() - t0) * 1000);
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs the programs under the schedule; resolves once serve and every program have ended. */
export async function runServed(name: string, schedule: Schedule, apps: readonly AppUnderTest[]): Promise<RunOutcome> {
  const parsed = parseScenario(clusterScenarioText(name, schedule), name);
  if (!parsed.ok) throw new Error(`app-check: the drawn scenario does not parse: ${parsed.errors[0]?.message}`);
  const io = bufferIO();
  const stop = new AbortController();
  const t0 = performance.now();
  const served = serve(
    parsed.scenario,
    { host: '127.0.0.1', basePort: undefined, record: undefined, fromFile: true, run: {}, stop: stop.signal },
    io,
  );
  let ended = false;
  void served.then(
    () => (ended = true),
    () => (ended = true),
  );
  while (!io.stdout.some((l) => l.startsWith('# ready'))) {
    if (ended) throw new Error(`app-check: serve ended before it was ready: ${io.stderr.join(' ')}`);
    await sleep(10);
  }
  const members = io.stdout.flatMap((l) => {
    const m = /^# (\S+) (http:\/\/\S+) member-id/.exec(l);
    return m === null ? [] : [{ name: m[1]!, url: m[2]! }];
  });
  const clock = { now: (): Micros => wallUsSince(t0) };
  const trace = new Trace();
  const lines: AppLine[] = [];
  const session = new AppSession({ trace, clock, members, onLine: (l) => lines.push(l) });
  const watch = new DeletionWatch(
    members.map((m) => m.url.replace(/^http:\/\//, '')),
    clock,
  );
  const skipped: string[] = [];
  let exits: AppExit[] = [];
  let endUs: Micros = 0;
  try {
    await watch.start();
    await session.start();
    for (const a of apps) await session.launch({ name: a.name, command: '/bin/sh', args: ['-c', a.command] });
    const stalls = schedule.faults.flatMap((f) => (f.kind === 'pause-app' ? [f] : []));
    for (const f of stalls) {
      const wait = (f.atUs - clock.now()) / 1000;
      if (wait > 0) await sleep(wait);
      if (ended) break;
      const why = await session.step({ kind: 'pause', app: f.app, forUs: f.forUs }, wallTimer);
      if (why !== undefined) skipped.push(`pause ${f.app} at ${f.atUs / 1e6} s: ${why}`);
    }
    // The run ends when serve's scenario does, or earlier once every program has exited.
    while (!ended && !session.allExited) await sleep(50);
    endUs = clock.now();
    exits = await session.finish();
  } finally {
    stop.abort();
    await served.catch(() => undefined);
    await session.close();
    watch.close();
  }
  const events = [...trace.events, ...revocationsFromDeletions(trace.events, watch.deletions)];
  return {
    violations: judgeApps(events, endUs).flatMap((j) => j.violations),
    exits,
    lines,
    skipped,
    wallMs: performance.now() - t0,
  };
}

/**
 * Lock-key deletions as a client sees them: a watch on the whole keyspace on every member (a paused or
 * crashed member does not hide one), each deletion kept once, at the first moment a member reported it.
 */
class DeletionWatch {
  readonly deletions: KeyDeletion[] = [];
  private readonly seen = new Set<string>();
  private readonly rpcs: EtcdRpc[];
  private readonly cancels: (() => void)[] = [];

  constructor(
    endpoints: readonly string[],
    private readonly clock: { now(): Micros },
  ) {
    this.rpcs = endpoints.map((e) => new EtcdRpc(e));
  }

  async start(): Promise<void> {
    const from = (await this.rpcs[0]!.range('lessor-sim/none', false)).revision + 1;
    await Promise.all(
      this.rpcs.map(
        (rpc) =>
          new Promise<void>((resolve) => {
            this.cancels.push(
              rpc.watchAll(from, {
                onCreated: resolve,
                onEvents: (events) => {
                  for (const e of events) {
                    const id = `${e.key}@${e.modRevision}`;
                    if (e.type !== 'DELETE' || this.seen.has(id)) continue;
                    this.seen.add(id);
                    this.deletions.push({ key: e.key, tUs: this.clock.now() });
                  }
                },
                onEnd: () => undefined,
              }),
            );
          }),
      ),
    );
  }

  close(): void {
    for (const c of this.cancels) c();
    for (const r of this.rpcs) r.close();
  }
}
