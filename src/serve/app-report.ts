/**
 * The lines serve prints after run's verdicts when programs ran under it: how each program ended, its
 * writes, the holder properties it broke, and the verdict behind the exit code (cli/app-verdict.ts).
 */
import type { AppExit } from '../apps/app-runner.js';
import type { AppJudgement } from '../apps/judge.js';
import type { AppVerdict } from '../cli/app-verdict.js';
import { formatSeconds } from '../clock/time.js';
import { oneLine } from '../report/terminal-text.js';
import type { TraceEvent, TraceEventMap } from '../trace/trace.js';

function ended(e: AppExit | undefined): string {
  if (e === undefined) return 'never ran';
  const how = e.signal !== null ? `killed by ${e.signal}` : `exited with code ${e.code}`;
  return `${e.byHarness ? `${how} by the harness` : how} at ${formatSeconds(e.t)} s`;
}

export function appVerdictLines(
  names: readonly string[],
  exits: readonly AppExit[],
  judgements: readonly AppJudgement[],
  verdict: AppVerdict,
  events: readonly TraceEvent[],
): string[] {
  const out: string[] = [];
  for (const name of names) {
    const writes = events.filter(
      (e): e is TraceEventMap['client-fenced-write'] => e.member === name && e.kind === 'client-fenced-write',
    );
    const accepted = writes.filter((e) => e.fields.accepted).length;
    out.push(
      `APP ${name}  ${ended(exits.find((e) => e.app === name))}; ` +
        `writes ${accepted} accepted, ${writes.length - accepted} rejected`,
    );
  }
  for (const j of judgements)
    for (const v of j.violations)
      out.push(oneLine(`VIOLATED  ${v.property}  lock ${j.key || '(none named)'}: ${v.message}`));
  out.push(`APPS  exit ${verdict.code}: ${verdict.reason}`);
  return out;
}
