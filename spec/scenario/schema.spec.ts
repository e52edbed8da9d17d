import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ASSERTION_FORMS, FORMS } from '../../src/scenario/assertion-forms.js';
import { buildSchema } from '../../src/scenario/schema.js';
import { STEP_KIND_NAMES } from '../../src/scenario/steps.js';

const COMMITTED = new URL('../../schema/scenario.schema.json', import.meta.url);
const REGENERATE =
  'regenerate with: npx tsx -e "import { writeFileSync } from ' +
  "'node:fs'; import { buildSchema } from './src/scenario/schema.ts'; " +
  "writeFileSync('schema/scenario.schema.json', JSON.stringify(buildSchema(), null, 2) + '\\n')\"";

describe('JSON Schema', () => {
  it('the committed file is exactly buildSchema() output', () => {
    expect(readFileSync(COMMITTED, 'utf8'), REGENERATE).toBe(`${JSON.stringify(buildSchema(), null, 2)}\n`);
  });

  it('describes every step kind and assertion form', () => {
    const defs = buildSchema().$defs as Record<string, { anyOf?: { title?: string }[] }>;
    for (const kind of STEP_KIND_NAMES) expect(defs, kind).toHaveProperty(`step-${kind}`);
    expect(defs.assertion?.anyOf?.map((f) => f.title)).toEqual(Object.keys(ASSERTION_FORMS));
  });
});

describe('assertion table', () => {
  it('is unambiguous: no key set fully matches two forms', () => {
    for (const a of FORMS) {
      for (const b of FORMS) {
        if (a === b) continue;
        const both = [...a.required, ...b.required];
        const fitsBoth = both.every((k) => a.allowed.includes(k) && b.allowed.includes(k));
        expect(fitsBoth, `${a.form} / ${b.form}`).toBe(false);
      }
    }
  });
});
