// docs/holders.md's worked example from the installed package: a user-written holder (holders-example.ts,
// copied from docs/ with its imports pointed at the package) is unsafe on the committed shrunk run, and
// its fix is safe there and over a small campaign.
import { readFileSync } from 'node:fs';
import { checkHolderRunAsync } from 'lessor-sim/properties';
import { expect, test } from 'vitest';
import { EXAMPLE_HOLDERS, findUnsafeRun } from './holders-example.js';

const SHRUNK = readFileSync(new URL('./holders-example.unsafe.yaml', import.meta.url), 'utf8');

test('the naive holder acts after its lease is revoked on the shrunk run; the fixed one does not', async () => {
  const naive = await checkHolderRunAsync(SHRUNK, EXAMPLE_HOLDERS);
  expect(naive.violation?.property).toBe('holder-stops-before-revoke');
  const fixed = await checkHolderRunAsync(SHRUNK.replaceAll('user:naive', 'user:fixed'), EXAMPLE_HOLDERS);
  expect(fixed.violation).toBeUndefined();
  expect(fixed.report.overlapUs).toBe(0);
}, 60_000);

test('a small campaign finds nothing against the fixed holder', async () => {
  expect(await findUnsafeRun('fixed', 5, 3)).toBeUndefined();
}, 120_000);
