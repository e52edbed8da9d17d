// One client's conformance tests: each script against a fresh real etcd 3.4.23 cluster must print exactly
// its golden transcript (normalised); against `lessor-sim serve` it must print the same, but for the known
// gaps listed for it (each one a hunk of the line diff, asserted exactly, so a gap that closes or a new
// difference both fail the test and the list stays true).
import { existsSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type ClientScript, ROOT, works } from './clients.js';
import { KNOWN_GAPS } from './known-gaps.js';
import { normalise } from './normalise.js';
import { runClient } from './run-client.js';
import { startEtcd, startServe, type Target } from './targets.js';
import { describeHunks, diffLines, readGolden, WRITE_GOLDEN, writeGolden } from './transcripts.js';

export const noEtcd = existsSync('/usr/bin/etcd')
  ? undefined
  : '/usr/bin/etcd is missing (apt-get install etcd-server)';

/** Why serve cannot be tested here, or undefined. */
export const serveMissing: string | undefined = works(process.execPath, [
  '--import',
  'tsx',
  `${ROOT}/src/cli/main.ts`,
  'serve',
  '--help',
])
  ? undefined
  : '`lessor-sim serve --help` fails: this branch has no serve command';

/** The script's normalised transcript on the target, ended by its exit code; a run past its limit fails. */
export async function transcriptOn(
  target: Target,
  script: ClientScript,
  onStart?: (pid: number) => void,
): Promise<string> {
  const { cmd, args } = script.command();
  const run = await runClient(cmd, args, {
    endpoints: target.endpoints,
    timeoutMs: script.timeoutMs,
    cwd: ROOT,
    ...(onStart ? { onStart } : {}),
  });
  const status = `exit ${run.code}${run.timedOut ? ', timed out' : ''}`;
  expect(run.timedOut, `${script.name} on ${target.kind} (${status})\n${run.stdout}\nstderr:\n${run.stderr}`).toBe(
    false,
  );
  // The exit code is an outcome too (a client that crashes on an answer shows here).
  return `${normalise(run.stdout, target.endpoints)}(exit ${run.code})\n`;
}

async function on<T>(start: () => Promise<Target>, body: (t: Target) => Promise<T>): Promise<T> {
  const target = await start();
  try {
    return await body(target);
  } finally {
    await target.stop();
  }
}

/** A test's limit: the script's own, and room for starting and stopping a cluster on a loaded machine. */
export const testTimeout = (script: ClientScript): number => script.timeoutMs + 120_000;

/** Builds what the scripts need once, before the file's first test, with a limit of its own. */
export function prepare(scripts: readonly ClientScript[], skip: string | undefined): void {
  beforeAll(() => {
    if (skip === undefined) for (const s of scripts) s.prepare?.();
  }, 600_000);
}

export function conformance(client: string, skip: string | undefined, scripts: readonly ClientScript[]): void {
  prepare(scripts, skip);
  const etcdSkip = skip ?? noEtcd;
  describe(`${client} against real etcd 3.4.23${etcdSkip ? ` (skipped: ${etcdSkip})` : ''}`, () => {
    for (const script of scripts) {
      it.skipIf(etcdSkip !== undefined)(
        `${script.name}: the transcript is the golden one`,
        async () => {
          const got = await on(startEtcd, (t) => transcriptOn(t, script));
          if (WRITE_GOLDEN) writeGolden(script.name, got);
          const golden = readGolden(script.name);
          expect(golden, `no golden transcript for ${script.name}; run with LESSOR_SIM_WRITE_GOLDEN=1`).toBeDefined();
          expect(got).toBe(golden);
        },
        testTimeout(script),
      );
    }
  });
  const serveSkip = skip ?? serveMissing;
  describe(`${client} against lessor-sim serve${serveSkip ? ` (skipped: ${serveSkip})` : ''}`, () => {
    for (const script of scripts) {
      it.skipIf(serveSkip !== undefined)(
        `${script.name}: the transcript is the golden one but for its known gaps`,
        async () => {
          const golden = readGolden(script.name);
          expect(golden, `no golden transcript for ${script.name}`).toBeDefined();
          const got = await on(
            () => startServe(),
            (t) => transcriptOn(t, script),
          );
          const hunks = diffLines(golden!, got);
          if (hunks.length > 0) console.log(`${script.name}: serve differs from etcd 3.4.23\n${describeHunks(hunks)}`);
          expect(describeHunks(hunks)).toBe(describeHunks(KNOWN_GAPS[script.name] ?? []));
        },
        testTimeout(script),
      );
    }
  });
}
