// `--reporter junit --output FILE` for run and check: one test case per assertion (run) or per property
// (check), failures carrying the failure text and the replay command, and documents valid against the
// Apache Ant JUnit schema (spec/support/junit/JUnit.xsd, see its README) that CI systems read.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { validateXML } from 'xmllint-wasm';
import { cli } from '../../src/cli/cli.js';
import { bufferIO } from '../../src/cli/io.js';
import { PROPERTY_NAMES } from '../../src/properties/index.js';

const XSD = readFileSync(resolve(__dirname, '../support/junit/JUnit.xsd'), 'utf8');
const RUNBOOK = 'scenarios/seed-runbook.yaml';
const dir = mkdtempSync(join(tmpdir(), 'lessor-junit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function report(argv: string[]): Promise<{ code: number; xml: string }> {
  const file = join(dir, `${argv[0]}-${Math.random().toString(36).slice(2)}.xml`);
  const code = await cli([...argv, '--reporter', 'junit', '--output', file], bufferIO(), { version: 'test' });
  return { code, xml: readFileSync(file, 'utf8') };
}

async function expectValid(xml: string): Promise<void> {
  const r = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [XSD] });
  expect(
    r.errors.map((e) => e.rawMessage),
    xml.slice(0, 2000),
  ).toEqual([]);
  expect(r.valid).toBe(true);
  // The schema has teeth: without a suite's required properties element the document is refused.
  const broken = await validateXML({
    xml: [{ fileName: 'broken.xml', contents: xml.replace(/<properties>[\s\S]*?<\/properties>/, '') }],
    schema: [XSD],
  });
  expect(broken.valid).toBe(false);
}

const count = (xml: string, re: RegExp): number => [...xml.matchAll(re)].length;

describe('lessor-sim run --reporter junit', () => {
  it('writes one valid test case per assertion, with the failure and the replay command', async () => {
    // The runbook with its first assertion made wrong: the key's value is owner-1, not owner-9.
    const text = readFileSync(RUNBOOK, 'utf8');
    const broken = join(dir, 'broken.yaml');
    writeFileSync(
      broken,
      text.replace(
        'expect: { key: /locks/payment-42, value: owner-1 }',
        'expect: { key: /locks/payment-42, value: owner-9 }',
      ),
    );
    expect(readFileSync(broken, 'utf8')).not.toBe(text);
    const { code, xml } = await report(['run', '--quiet', RUNBOOK, broken, '--seed', '7']);
    expect(code).toBe(1);
    await expectValid(xml);
    expect(count(xml, /<testsuite /g)).toBe(2);
    expect(count(xml, /<testcase /g)).toBe(18);
    expect(count(xml, /<failure /g)).toBe(1);
    expect(xml).toMatch(
      /<failure message="expected key \/locks\/payment-42 = &quot;owner-9&quot;[^"]*, got [^"]+" type="assertion">/,
    );
    expect(xml).toContain(`replay: npx lessor-sim run ${broken} --seed 7</failure>`);
  });
});

describe('lessor-sim check --reporter junit', () => {
  it('writes one valid test case per property, a violated one with each run and how to replay it', async () => {
    const out = join(dir, 'cx');
    const { code, xml } = await report([
      'check',
      '--seed',
      '9',
      '--runs',
      '4',
      '--workers',
      '1',
      '--bugs',
      'register-expiry-on-followers',
      '--out',
      out,
    ]);
    expect(code).toBe(1);
    await expectValid(xml);
    expect(count(xml, /<testcase /g)).toBe(PROPERTY_NAMES.length);
    const failure = new RegExp(
      String.raw`<testcase name="resource-invariants"[^>]*>\s*<failure message="(\d+) of 4 runs ` +
        String.raw`violated resource-invariants[^"]*" type="property">([^<]*)<\/failure>`,
    ).exec(xml);
    expect(failure).not.toBeNull();
    expect(failure![2]).toMatch(
      new RegExp(`replay: npx lessor-sim run ${out}/check-9-\\d+-resource-invariants\\.yaml`),
    );
  });
});
