// The state the playground shows is folded from the trace; here it is held to the live cluster's state
// (lessors, keyspaces, raft, processes) at many instants of every library scenario.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUG_NAMES } from '../../src/switches/bugs.js';
import { DeadlineBook } from '../../src/playground/deadlines.js';
import { snapshot } from '../../src/playground/snapshot.js';
import { clientNamesOf, StateFold } from '../../src/playground/state-fold.js';
import { parseScenario } from '../../src/scenario/parse.js';
import { startScenario } from '../../src/scenario/replay/runner.js';

const SCENARIOS = resolve(__dirname, '../../scenarios');
const yamlFiles = (dir: string): string[] =>
  readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? yamlFiles(p) : p.endsWith('.yaml') ? [p] : [];
  });

describe('StateFold', () => {
  const files = yamlFiles(SCENARIOS).sort();
  it('has library scenarios to check', () => expect(files.length).toBeGreaterThan(50));

  it.each(files.map((f) => [f.slice(SCENARIOS.length + 1), f]))(
    'agrees with the live cluster through %s',
    (_name, file) => {
      const p = parseScenario(readFileSync(file, 'utf8'), file, { knownBugs: BUG_NAMES });
      if (!p.ok) return;
      const sc = p.scenario;
      const run = startScenario(sc);
      if (run.cluster === undefined || run.done) return;
      const fold = new StateFold(run.cluster.names, clientNamesOf(sc.steps));
      const deadlines = new DeadlineBook();
      // Session-held keep-alives (locks) live in the trace but not in the replay's own client table.
      const compareClients = !sc.steps.some((s) => s.kind === 'lock');
      const stepUs = Math.max(50_000, Math.floor(sc.durationUs / 400));
      for (let t = 0; t <= sc.durationUs; t += stepUs) {
        run.advanceTo(t);
        const ev = run.trace.events;
        for (let i = fold.count; i < ev.length; i++) {
          fold.fold(ev[i]!);
          deadlines.fold(ev[i]!);
        }
        const labels = run.result().labels;
        const live = snapshot(t, run.cluster, labels, deadlines, run.clients());
        const folded = fold.view(t, deadlines);
        expect({ ...folded, clients: compareClients ? folded.clients : [] }, `at ${t} µs`).toEqual({
          ...live,
          clients: compareClients ? live.clients : [],
        });
      }
    },
  );
});
