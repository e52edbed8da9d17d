// Plain Node, no TypeScript and no test runner: every export of the package loads as ESM and works.
import assert from 'node:assert/strict';
import { parseScenario, runScenario, Cluster } from 'lessor-sim';
import { PROPERTY_NAMES, driftBound, drainBound } from 'lessor-sim/properties';
import { narrate } from 'lessor-sim/report';
import { createLessor } from 'lessor-sim/lessor';
import { EtcdClient } from 'lessor-sim/client';
import { HOLDER_STRATEGY_NAMES } from 'lessor-sim/holder';
import { serveApps } from 'lessor-sim/serve';
import schema from 'lessor-sim/schema.json' with { type: 'json' };

const parsed = parseScenario(
  'name: esm\ncluster: { members: 1 }\nsteps:\n  - at: 0s\n    grant: { lease: L1, ttl: 5 }\n  - at: 6s\n    expect: { lease: L1, exists: false }\n',
  'esm.yaml',
);
assert.ok(parsed.ok);
const r = runScenario(parsed.scenario);
assert.ok(r.passed);
assert.ok(narrate(r).some((l) => l.includes('lease L1 revoked')));
for (const f of [Cluster, driftBound, drainBound, createLessor, EtcdClient, serveApps])
  assert.equal(typeof f, 'function');
assert.ok(PROPERTY_NAMES.includes('no-early-expiry'));
assert.ok(HOLDER_STRATEGY_NAMES.includes('deadline'));
assert.equal(typeof schema, 'object');
console.log(`esm ok ${r.trace.hash()}`);
