/**
 * For `explain`: each answer a scenario named (`as: NAME`), read off the trace's ctl-answer events:
 * what the request got back and how long after it was sent, so an `expect: { answer }` can be checked
 * against the story.
 */
import { formatSecondsShort, formatTimeExact } from '../clock/time.js';
import { etcdErrorName } from '../scenario/answer-errors.js';
import type { RunResult } from '../scenario/replay/runner.js';

export function answerStories(result: RunResult): string[] {
  const out: string[] = [];
  for (const e of result.trace.events) {
    if (e.kind !== 'ctl-answer' || e.fields === undefined) continue;
    const { name, op, err, took } = e.fields;
    const what = err === undefined ? 'succeeded' : `failed with ${etcdErrorName(err)}`;
    out.push(
      `answer ${name}: the ${op} sent at ${formatTimeExact(e.t - took)} ${what} ` +
        `${formatSecondsShort(took)} s later, at ${formatTimeExact(e.t)}`,
    );
  }
  return out;
}
