// RunOptions.clientEndpoints: `diff` runs the simulation with each scenario client given one endpoint, as
// the real side's etcdctl processes are, so neither side fails over where the other cannot.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseScenario } from '../../src/scenario/parse.js';
import { runScenario } from '../../src/scenario/replay/runner.js';

const FILE = resolve(__dirname, '../../scenarios/differential/client-one-endpoint.yaml');

describe('clientEndpoints', () => {
  const p = parseScenario(readFileSync(FILE, 'utf8'), FILE);
  if (!p.ok) throw new Error('client-one-endpoint.yaml does not parse');
  const failing = (clientEndpoints: 'all' | 'one') =>
    runScenario(p.scenario, { profile: 'v3.4', clientEndpoints })
      .assertions.filter((a) => !a.pass)
      .map((a) => a.step.pos.line);

  it("'one': the keep-alive through the killed member cannot fail over, and the lease expires", () => {
    expect(failing('one')).toEqual([]);
  });

  it("'all' (run's default): the client fails over to another member and keeps the lease", () => {
    expect(failing('all')).toEqual([23, 25]);
  });
});
