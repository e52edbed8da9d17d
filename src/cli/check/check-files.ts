/**
 * `lessor-sim check FILE... [--property P]`: the campaign's monitors judging given scenario files (a
 * counterexample whose violation no expect form shows replays to its failure this way). Exit 1 when a
 * file violates a property or could not run as written, else 3 when one was stopped, else 0.
 */
import { formatSeconds } from '../../clock/time.js';
import { checkScenario } from '../../properties/check/check-run.js';
import { PROPERTY_NAMES, type PropertyName } from '../../properties/monitors/property-names.js';
import { formatEvent } from '../../trace/trace.js';
import { loadAll } from '../commands/scenario-flags.js';
import type { CliIO } from '../io.js';
import { guardFor, stopLine, type Limits } from '../limits.js';

export function checkFiles(
  files: readonly string[],
  properties: readonly PropertyName[],
  limits: Limits,
  io: CliIO,
): number {
  const scenarios = loadAll(files);
  const judged = properties.length > 0 ? properties : PROPERTY_NAMES;
  let violated = 0;
  let stopped = 0;
  for (const s of scenarios) {
    const v = checkScenario(s, { properties: judged, guard: guardFor(limits, Date.now) });
    io.out(`== ${s.file}: ${judged.length === 1 ? judged[0] : `${judged.length} properties`}`);
    if (v.result.setupError !== undefined) {
      violated++;
      io.out(`SETUP ERROR  ${s.file}: ${v.result.setupError}`);
    } else if (v.stopped !== undefined) {
      stopped++;
      io.err(stopLine(v.result)!);
      io.out(`STOPPED  ${s.file}: at ${formatSeconds(v.stopped.atUs)} s: ${v.stopped.message}; not judged`);
    } else if (v.violations.length > 0) {
      violated++;
      for (const x of v.violations)
        io.out(
          `VIOLATED  ${x.property} at ${formatSeconds(x.atUs)} s (trace line ${x.traceLine}): ${x.message}\n` +
            `          ${formatEvent(x.event)}`,
        );
    } else io.out(`HELD  ${judged.join(', ')}`);
  }
  const n = scenarios.length;
  io.out(
    `${n} ${n === 1 ? 'file' : 'files'}: ${n - violated - stopped} held, ${violated} violated` +
      (stopped > 0 ? `, ${stopped} stopped` : ''),
  );
  return violated > 0 ? 1 : stopped > 0 ? 3 : 0;
}
