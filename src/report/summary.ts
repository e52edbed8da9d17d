import { formatSeconds } from '../clock/time.js';
import type { RunResult } from '../scenario/replay/runner.js';
import { RunView, holderReport, type HolderReport } from '../properties/index.js';

const sec = (us: number): string => `${formatSeconds(us).replace(/0+$/, '').replace(/\.$/, '')} s`;

/** The per-holder figures, when the scenario has holders. */
function holders(r: RunResult): HolderReport | undefined {
  if (!r.scenario.steps.some((s) => s.kind === 'holder') || r.cluster === undefined) return undefined;
  return holderReport(new RunView(r));
}

function holderLines(r: RunResult): string[] {
  const h = holders(r);
  const out = (r.holderErrors ?? []).map((e) => `HOLDER ERROR  ${r.scenario.file}: ${e}`);
  if (h === undefined) return out;
  for (const f of h.holders) {
    out.push(
      `HOLDER ${f.holder}  ${f.acquisitions} acquisitions; believed ${sec(f.actingAfterRevokeUs)}` +
        ` after its lease was revoked (longest ${sec(f.maxActingAfterRevokeUs)}); ` +
        `overlap ${sec(f.overlapUs)}; writes ${f.writesAccepted} accepted, ${f.writesRejected} rejected; ` +
        `stale writes ${f.staleOffered} offered (all accepted without ` +
        `fencing), ${f.staleRejected} rejected, ${f.staleAccepted} accepted`,
    );
  }
  out.push(`HOLDERS  overlap ${sec(h.overlapUs)}`);
  return out;
}

/** The verdict block: PASS/FAIL per assertion, the trace hash, and a closing count line. */
export function summary(r: RunResult): string[] {
  const out: string[] = [];
  if (r.setupError !== undefined) out.push(`SETUP ERROR  ${r.scenario.file}: ${r.setupError}`);
  if (r.stopped !== undefined)
    out.push(
      `STOPPED  ${r.scenario.file}: at ${formatSeconds(r.stopped.atUs)} s after ` +
        `${r.stopped.events} events: ${r.stopped.message}; later assertions were not evaluated`,
    );
  for (const a of r.assertions) {
    const where = `${r.scenario.file}:${a.step.pos.line}`;
    out.push(
      `${a.passed ? 'PASS' : 'FAIL'}  ${where}  at ${formatSeconds(a.atUs)} s  ${a.text}${
        a.passed ? '' : ` — got ${a.got}`
      }`,
    );
  }
  out.push(...holderLines(r));
  out.push(`trace sha256 ${r.trace.hash()}`);
  const passed = r.assertions.filter((a) => a.passed).length;
  // A setup error counts as one failure: the scenario did not run as written. A stop is no failure: its
  // verdict is unknown, and the total line says so.
  const failed = r.assertions.length - passed + (r.setupError !== undefined ? 1 : 0);
  out.push(`${passed} passed, ${failed} failed${r.stopped !== undefined ? ', stopped' : ''}`);
  return out;
}

/** The machine-readable form of a replay (`lessor-sim run --json`). */
export function toJson(r: RunResult): object {
  const h = holders(r);
  return {
    file: r.scenario.file,
    name: r.scenario.name,
    profile: r.profile,
    seed: r.seed,
    passed: r.passed,
    setupError: r.setupError ?? null,
    stopped:
      r.stopped === undefined
        ? null
        : {
            reason: r.stopped.reason,
            atSeconds: r.stopped.atUs / 1e6,
            events: r.stopped.events,
            message: r.stopped.message,
          },
    traceHash: r.trace.hash(),
    events: r.trace.length,
    assertions: r.assertions.map((a) => ({
      line: a.step.pos.line,
      col: a.step.pos.col,
      atSeconds: a.atUs / 1e6,
      passed: a.passed,
      expect: a.text,
      got: a.got,
    })),
    ...(h !== undefined ? { holders: h } : {}),
  };
}
