/**
 * `check --app NAME=CMD --runs N`: a property campaign over real programs. Run i draws its fault schedule
 * from (seed, i) alone and runs it with the programs through serveApps; `parallel` runs go at once, each
 * cluster on free ports of its own. Every run is judged by the holder monitors. The first failing run
 * that fails the same way on a rerun is shrunk: its smaller candidate schedules are run, `parallel` at a
 * time, and the first in order that violates the same property replaces it, until none does or the
 * shrink budget is spent. Real programs fail near the edge only sometimes, so the result is confirmed by
 * fresh runs before it is written as a scenario file with the command that replays it.
 */
import { shellQuote } from '../../report/terminal-text.js';
import { AppStartError } from '../../apps/app-runner.js';
import { CliError } from '../errors.js';
import type { CliIO } from '../io.js';
import { EXIT } from '../exit-codes.js';
import { catchInterrupt, interruptedExitCode, type Interruption } from '../interrupt.js';
import { writeOutput } from '../output-path.js';
import { drawSchedule, formatDur, type Schedule, scenarioText, shrinkCandidates, size } from './schedule.js';
import { type AppUnderTest, type RunOutcome, runServed } from './served-run.js';

export interface CampaignOptions {
  readonly apps: readonly AppUnderTest[];
  readonly runs: number;
  readonly seed: number;
  /** Clusters (runs) at once. */
  readonly parallel: number;
  readonly durationUs: number;
  /** Where the shrunk scenario goes (stdout when absent). */
  readonly output: string | undefined;
  /** At most this many runs spent shrinking. */
  readonly shrinkRuns: number;
}

/** Fresh runs at once that must all fail for a shrunk schedule to be written. */
const CONFIRM = 2;

/** The default cluster's members: every schedule's member faults name these. */
const MEMBERS = ['n1', 'n2', 'n3'];

interface Judged {
  readonly schedule: Schedule;
  readonly outcome: RunOutcome;
}

const violated = (o: RunOutcome): string[] => [...new Set(o.violations.map((v) => v.property))];

/** Runs `schedules` with at most `parallel` at once; results in the order given. */
async function runAll(
  schedules: readonly Schedule[],
  o: CampaignOptions,
  label: (i: number) => string,
  stopped: () => boolean,
  done?: (i: number, j: Judged) => void,
): Promise<(Judged | undefined)[]> {
  const out: (Judged | undefined)[] = schedules.map(() => undefined);
  let next = 0;
  // The first error ends the campaign, once the runs under way have ended (nothing is left running).
  let failure: { readonly error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (next < schedules.length && !stopped() && failure === undefined) {
      const i = next++;
      const schedule = schedules[i]!;
      try {
        const outcome = await runServed(label(i), schedule, o.apps);
        out[i] = { schedule, outcome };
        done?.(i, out[i]!);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.parallel, schedules.length) }, worker));
  if (failure !== undefined) {
    const e = failure.error;
    if (e instanceof AppStartError) throw new CliError(`check --app: ${e.message}`, EXIT.usage);
    throw e;
  }
  return out;
}

const describeFaults = (s: Schedule): string =>
  s.faults
    .map((f) =>
      f.kind === 'pause-app'
        ? `${f.app} stalled ${formatDur(f.atUs)}+${formatDur(f.forUs)}`
        : `${f.member} ${f.kind === 'pause-member' ? 'paused' : 'crashed'} ${formatDur(f.atUs)}+${formatDur(f.forUs)}`,
    )
    .join(', ') || 'no faults';

export async function runAppCampaign(o: CampaignOptions, io: CliIO): Promise<number> {
  let interrupted: Interruption | undefined;
  const release = catchInterrupt((sig) => {
    interrupted = sig;
    io.err(`lessor-sim check: ${sig}: the runs under way end now (serve stops them); starting no more`);
  });
  const stopped = (): boolean => interrupted !== undefined;
  /** A scenario file to --output (or stdout), after a heading that says what it is. */
  const emit = (heading: string, text: string): void => {
    if (o.output === undefined) {
      io.out(`${heading}:`);
      for (const l of text.trimEnd().split('\n')) io.out(l);
    } else {
      writeOutput(o.output, text);
      io.out(`${heading}: ${o.output}`);
    }
  };
  try {
    io.out(
      `app campaign: seed ${o.seed}, ${o.runs} runs of ${formatDur(o.durationUs)}, ${o.parallel} at once; ` +
        `apps ${o.apps.map((a) => a.name).join(', ')}`,
    );
    const t0 = performance.now();
    const schedules = Array.from({ length: o.runs }, (_, i) =>
      drawSchedule(o.seed, i, { apps: o.apps.map((a) => a.name), members: MEMBERS, durationUs: o.durationUs }),
    );
    const results = await runAll(
      schedules,
      o,
      (i) => `app-check-${o.seed}-${i}`,
      stopped,
      (i, j) => {
        const v = violated(j.outcome);
        const verdict = v.length === 0 ? 'ok' : `violated ${v.join(', ')}`;
        const took = `${(j.outcome.wallMs / 1000).toFixed(1)} s`;
        // A program that ended badly on its own (a command not found is sh's 127) judges nothing: say so.
        const bad = j.outcome.exits
          .filter((e) => !e.byHarness && e.code !== 0)
          .map((e) => `; ${e.app} exited ${e.code ?? e.signal}`)
          .join('');
        const cut = stopped() ? '; cut short by the interruption' : '';
        io.out(`run ${i + 1}/${o.runs}: ${describeFaults(j.schedule)}: ${verdict} (${took}${bad}${cut})`);
      },
    );
    const ran = results.filter((r) => r !== undefined).length;
    const minutes = (performance.now() - t0) / 60_000;
    const failing = results.flatMap((r, i) => (r !== undefined && violated(r.outcome).length > 0 ? [i] : []));
    io.out(
      `${ran} runs in ${(minutes * 60).toFixed(1)} s (${(ran / minutes).toFixed(1)} runs/min with ${o.parallel} ` +
        `at once); ${failing.length} violated a holder property`,
    );
    if (failing.length === 0) return interrupted !== undefined ? interruptedExitCode(interrupted) : EXIT.ok;

    // Real programs on a loaded machine do not fail the same way every time: a failing run is shrunk only
    // once a rerun of its schedule fails the same way (the next failing run is tried otherwise).
    let chosen: { index: number; judged: Judged; target: string } | undefined;
    let spent = 0;
    for (const i of failing) {
      if (spent >= o.shrinkRuns || stopped()) break;
      const target = violated(results[i]!.outcome)[0]!;
      spent++;
      const rerun = (await runAll([results[i]!.schedule], o, () => `app-check-confirm-${i}`, stopped))[0];
      const again = rerun !== undefined && violated(rerun.outcome).includes(target);
      io.out(`run ${i + 1} rerun: ${again ? `violated ${target} again` : 'did not fail the same way'}`);
      if (again) {
        chosen = { index: i, judged: rerun, target };
        break;
      }
    }
    if (chosen === undefined && interrupted !== undefined) {
      // Interrupted before a rerun confirmed anything: what was found is still written, said to be unconfirmed.
      const i = failing[0]!;
      const target = violated(results[i]!.outcome)[0]!;
      const why = 'was not confirmed by a rerun: the campaign was interrupted first';
      emit(`failing run ${i + 1}, not shrunk (it ${why})`, scenarioFile(o, i, results[i]!, target, why));
      return interruptedExitCode(interrupted);
    }
    if (chosen === undefined) {
      io.out('no failing run failed the same way on a rerun: nothing to shrink');
      return EXIT.failed;
    }
    const { target } = chosen;
    io.out(`shrinking run ${chosen.index + 1} (${target}), at most ${o.shrinkRuns - spent} more runs`);
    let current = chosen.judged;
    // Every schedule accepted on the way, the confirmed failing run first: a shrunk schedule sits near the
    // edge of failing (a stall just past what the lease survives), where real programs fail only sometimes.
    const chain: Judged[] = [current];
    while (spent < o.shrinkRuns && !stopped()) {
      const candidates = shrinkCandidates(current.schedule).filter((c) => size(c) < size(current.schedule));
      let better: Judged | undefined;
      for (let k = 0; k < candidates.length && better === undefined && spent < o.shrinkRuns && !stopped(); ) {
        const batch = candidates.slice(k, k + Math.min(o.parallel, o.shrinkRuns - spent));
        k += batch.length;
        spent += batch.length;
        const judged = await runAll(batch, o, (i) => `app-check-shrink-${spent}-${i}`, stopped);
        better = judged.find((j) => j !== undefined && violated(j.outcome).includes(target));
      }
      if (better === undefined) break;
      current = better;
      chain.push(current);
      io.out(`  smaller: ${describeFaults(current.schedule)}, ${formatDur(current.schedule.durationUs)}`);
    }
    // The smallest schedule (or the one halfway along the chain) that fails in every one of `copies` fresh
    // runs at once; the confirmed original when neither does.
    const copies = Math.max(CONFIRM, o.parallel);
    let reproduced = 'failed the same way in the original run and its rerun';
    let written = chain[0]!;
    const last = chain.length - 1;
    for (const k of [...new Set([last, Math.floor(last / 2)])].filter((x) => x >= 1)) {
      if (stopped()) break;
      const runs = await runAll(
        Array.from({ length: copies }, () => chain[k]!.schedule),
        o,
        (i) => `app-check-repro-${k}-${i}`,
        stopped,
      );
      const failed = runs.filter((j) => j !== undefined && violated(j.outcome).includes(target)).length;
      io.out(`  ${describeFaults(chain[k]!.schedule)}: ${failed} of ${copies} fresh runs failed the same way`);
      if (failed === copies) {
        written = chain[k]!;
        reproduced = `failed the same way in ${failed} of ${copies} fresh runs`;
        break;
      }
    }
    emit(
      `shrunk scenario (${spent} shrink runs; ${reproduced})`,
      scenarioFile(o, chosen.index, written, target, reproduced),
    );
    return interrupted !== undefined ? interruptedExitCode(interrupted) : EXIT.failed;
  } finally {
    release();
  }
}

function scenarioFile(o: CampaignOptions, index: number, j: Judged, target: string, reproduced: string): string {
  const v = j.outcome.violations.find((x) => x.property === target)!;
  const appFlags = o.apps.map((a) => `--app ${shellQuote(`${a.name}=${a.command}`)}`).join(' ');
  const comment = (s: string): string => s.replace(/[\r\n]+/g, ' ');
  return scenarioText(`app-check-${o.seed}-${index + 1}`, j.schedule, [
    `# Shrunk by lessor-sim check --app from run ${index + 1} of campaign seed ${o.seed}.`,
    `# ${comment(target)}: ${comment(v.message)}`,
    `# It ${reproduced}.`,
    `# Replay: lessor-sim serve FILE ${comment(appFlags)}`,
  ]);
}
