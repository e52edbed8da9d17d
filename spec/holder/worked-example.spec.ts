// docs/holders.md's worked example: a user-written holder found unsafe by a campaign, shrunk to a
// scenario file, fixed, and found safe.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXAMPLE_HOLDERS, findUnsafeRun } from '../../docs/holders-example.js';
import { checkHolderRunAsync } from '../../src/properties/index.js';

const SHRUNK = readFileSync(resolve(__dirname, '../../docs/holders-example.unsafe.yaml'), 'utf8');
const SEED = 3;

describe('worked example (docs/holders.md)', () => {
  it(`the campaign (seed ${SEED}) finds the naive holder unsafe and shrinks the run to one client pause`, async () => {
    const found = await findUnsafeRun('naive', 20, SEED);
    expect(found).toBeDefined();
    const pauses = found!.split('\n').filter((l) => /^\s+(pause|partition|transfer-leader|clock):/.test(l));
    expect(pauses).toHaveLength(1);
    expect((await checkHolderRunAsync(found!, EXAMPLE_HOLDERS)).violation).toBeDefined();
  }, 120_000);

  it('the committed shrunk file breaks the naive holder and not the fixed one', async () => {
    const naive = await checkHolderRunAsync(SHRUNK, EXAMPLE_HOLDERS);
    expect(naive.violation?.property).toBe('holder-stops-before-revoke');
    expect(naive.report.holders.find((h) => h.holder === 'a')!.actingAfterRevokeUs).toBeGreaterThan(0);
    const fixed = await checkHolderRunAsync(SHRUNK.replaceAll('user:naive', 'user:fixed'), EXAMPLE_HOLDERS);
    expect(fixed.violation).toBeUndefined();
    expect(fixed.report.overlapUs).toBe(0);
  }, 60_000);

  it(`the campaign (seed ${SEED}) finds nothing against the fixed holder`, async () => {
    expect(await findUnsafeRun('fixed', 20, SEED)).toBeUndefined();
  }, 120_000);
});
