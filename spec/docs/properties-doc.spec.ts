// docs/properties.md and the README count the properties as `lessor-sim help check` lists them: the table
// of §K properties plus the holder properties of docs/holders.md make up PROPERTY_NAMES, and every count
// the two pages state is that one.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROPERTY_NAMES } from '../../src/properties/monitors/property-names.js';

const ROOT = resolve(__dirname, '../..');
const read = (f: string): string => readFileSync(join(ROOT, f), 'utf8');

describe('the property counts in the docs', () => {
  const doc = read('docs/properties.md');
  const table = [...doc.matchAll(/^\| `([a-z-]+)` \| K\d+ \|/gm)].map((m) => m[1]!);
  const holders = PROPERTY_NAMES.filter((p) => !table.includes(p));

  it("are help's: the §K table and the holder properties of holders.md, together every property once", () => {
    expect(new Set([...table, ...holders])).toEqual(new Set(PROPERTY_NAMES));
    expect(table.length + holders.length).toBe(PROPERTY_NAMES.length);
    for (const h of holders) expect(read('docs/holders.md'), h).toContain(`\`${h}\``);
  });

  it('are the numbers docs/properties.md and the README state', () => {
    expect(doc).toContain(
      `default all ${PROPERTY_NAMES.length} (the ${table.length} above and the ${holders.length} holder properties`,
    );
    expect(read('README.md')).toContain(
      `against ${PROPERTY_NAMES.length} properties: ${table.length} from the bug catalogue's §K`,
    );
    expect(read('README.md')).toMatch(new RegExp(`and ${holders.length}\\s+on\\s+lock holders`));
  });
});
