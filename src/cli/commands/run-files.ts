/**
 * `lessor-sim run`'s work: replay each scenario, print timeline and verdicts (or JSON), a total, and the JUnit report.
 */
import { narrate } from '../../report/narrate.js';
import { summary, toJson } from '../../report/summary.js';
import type { RunOptions, RunResult } from '../../scenario/replay/runner.js';
import type { Scenario } from '../../scenario/types.js';
import type { CliIO } from '../io.js';
import { junitXml, type JUnitCase, type JUnitSuite } from '../junit.js';
import { exitCodeOf } from '../limits.js';
import { replay, type ReplayCli } from '../replay.js';
import { writeOutput } from '../output-path.js';
import { oneLine, shellCommand } from '../../report/terminal-text.js';

export interface RunFlags {
  readonly quiet: boolean;
  readonly verbose: boolean;
  readonly json: boolean;
  readonly junit: string | undefined;
}

export function runFiles(
  scenarios: readonly Scenario[],
  opts: RunOptions,
  cli: ReplayCli,
  flags: RunFlags,
  io: CliIO,
): number {
  const started = new Date();
  const results: { r: RunResult; seconds: number }[] = [];
  for (const s of scenarios) {
    const t0 = performance.now();
    const r = replay(s, opts, cli, io);
    results.push({ r, seconds: (performance.now() - t0) / 1000 });
    if (flags.json) continue;
    io.out(oneLine(`== ${s.name} (${s.file}): profile ${r.profile}, seed ${r.seed}, ${s.cluster.members} members`));
    // A stopped replay's timeline is cut short (and a livelock's is a million lines): its stop line says enough.
    if (!flags.quiet && r.stopped === undefined)
      for (const line of narrate(r, { verbose: flags.verbose })) io.out(oneLine(line));
    for (const line of summary(r)) io.out(oneLine(line));
    io.out('');
  }
  const stopped = results.filter(({ r }) => r.stopped !== undefined).length;
  const failed = results.filter(({ r }) => !r.passed && r.stopped === undefined).length;
  if (flags.json)
    io.out(
      JSON.stringify(
        results.map(({ r }) => toJson(r)),
        null,
        2,
      ),
    );
  else if (results.length > 1)
    io.out(
      `${results.length} scenarios: ${results.length - failed - stopped} passed, ${failed} failed` +
        (stopped > 0 ? `, ${stopped} stopped` : ''),
    );
  if (flags.junit !== undefined)
    writeOutput(
      flags.junit,
      junitXml(
        results.map(({ r, seconds }) => suiteOf(r, seconds, opts)),
        started,
      ),
    );
  return exitCodeOf(results.map(({ r }) => r));
}

/** The command that replays this result exactly. */
export function replayCommand(r: RunResult, opts: RunOptions): string {
  return shellCommand([
    'npx',
    'lessor-sim',
    'run',
    r.scenario.file,
    ...(opts.seed !== undefined ? ['--seed', String(r.seed)] : []),
    ...(opts.profile !== undefined ? ['--profile', r.profile] : []),
  ]);
}

function suiteOf(r: RunResult, seconds: number, opts: RunOptions): JUnitSuite {
  const replay = replayCommand(r, opts);
  const classname = r.scenario.file.replace(/\.ya?ml$/, '').replace(/[/\\]/g, '.');
  const cases: JUnitCase[] = r.assertions.map((a) => ({
    name: `line ${a.step.pos.line} at ${(a.atUs / 1e6).toFixed(3)} s: ${a.text}`,
    classname,
    seconds: 0,
    ...(a.passed
      ? {}
      : {
          failure: {
            message: `expected ${a.text}, got ${a.got}`,
            type: 'assertion',
            text:
              `${r.scenario.file}:${a.step.pos.line}:${a.step.pos.col}` +
              `: expected ${a.text}, got ${a.got}\nreplay: ${replay}`,
          },
        }),
  }));
  if (r.setupError !== undefined) {
    cases.unshift({
      name: 'setup',
      classname,
      seconds: 0,
      error: { message: r.setupError, type: 'setup', text: `${r.scenario.file}: ${r.setupError}\nreplay: ${replay}` },
    });
  }
  return {
    name: r.scenario.name,
    package: classname,
    seconds,
    properties: [
      ['file', r.scenario.file],
      ['profile', r.profile],
      ['seed', String(r.seed)],
      ['trace-sha256', r.trace.hash()],
    ],
    cases,
  };
}
