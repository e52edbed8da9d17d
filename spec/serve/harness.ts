// serve in-process for the specs: started on free loopback ports, its endpoints and IDs read from what it
// prints, stopped as SIGINT would stop it.
import type { CliIO } from '../../src/cli/io.js';
import type { Scenario } from '../../src/scenario/types.js';
import { defaultCluster } from '../../src/serve/default-cluster.js';
import { serve } from '../../src/serve/serve.js';

export interface Served {
  /** Member name to host:port. */
  readonly endpoints: Readonly<Record<string, string>>;
  readonly memberIds: Readonly<Record<string, string>>;
  readonly clusterId: string;
  readonly stdout: readonly string[];
  /** Stops serving; resolves to the exit code once everything is closed. */
  stop(): Promise<number>;
  /** Resolves to the exit code when serve ends by itself (a scenario's duration). */
  readonly done: Promise<number>;
}

export async function startServe(opts: { scenario?: Scenario; record?: string } = {}): Promise<Served> {
  const stdout: string[] = [];
  const io: CliIO = { out: (l) => stdout.push(l), err: (l) => stdout.push(l), errIsTTY: false };
  const stop = new AbortController();
  const done = serve(
    opts.scenario ?? defaultCluster(),
    {
      host: '127.0.0.1',
      basePort: undefined,
      record: opts.record,
      fromFile: opts.scenario !== undefined,
      run: {},
      stop: stop.signal,
    },
    io,
  );
  let settled: number | undefined;
  void done.then((c) => {
    settled = c;
  });
  while (!stdout.some((l) => l.startsWith('# ready'))) {
    if (settled !== undefined) throw new Error(`serve ended before it was ready:\n${stdout.join('\n')}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const endpoints: Record<string, string> = {};
  const memberIds: Record<string, string> = {};
  for (const l of stdout) {
    const m = /^# (n\d) http:\/\/(\S+) member-id (\d+)$/.exec(l);
    if (m !== null) {
      endpoints[m[1]!] = m[2]!;
      memberIds[m[1]!] = m[3]!;
    }
  }
  const clusterId = /cluster-id (\d+)/.exec(stdout.find((l) => l.startsWith('# ready'))!)![1]!;
  return {
    endpoints,
    memberIds,
    clusterId,
    stdout,
    done,
    stop: () => {
      stop.abort();
      return done;
    },
  };
}
