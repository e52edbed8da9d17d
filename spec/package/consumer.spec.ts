// The package as a user gets it: built, packed with `npm pack`, installed from the tarball into a fresh
// project with a strict tsconfig (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess), which
// type-checks and runs its own vitest suite importing lessor-sim by name, loads every export from plain
// Node, and runs the installed command. The user's files are spec/package/consumer/ (every *.test.ts
// there runs, so adding an example is adding a file) and the README's API examples (each ```ts block
// after an `<!-- example: NAME.test.ts -->` line).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'lessor-package-'));
const project = join(work, 'project');
let packed: { filename: string; files: { path: string }[] };

// The nested vitest and npm must not think they run inside this one.
const env = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !k.startsWith('VITEST') && k !== 'NODE_OPTIONS' && !k.startsWith('npm_')),
);
const sh = (cmd: string, args: string[], cwd: string): SpawnSyncReturns<string> =>
  spawnSync(cmd, args, { cwd, env, encoding: 'utf8', maxBuffer: 64 << 20 });
const ok = (r: SpawnSyncReturns<string>): string => {
  if (r.status !== 0) throw new Error(`exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
};

/** The README's API examples: [file name, code]. */
function readmeExamples(): [string, string][] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  return [...readme.matchAll(/^<!-- example: ([\w.-]+\.test\.ts) -->\n```ts\n([\s\S]*?)^```$/gm)].map((m) => [
    m[1]!,
    m[2]!,
  ]);
}
const testFiles =
  readdirSync(join(ROOT, 'spec/package/consumer')).filter((f) => f.endsWith('.test.ts')).length +
  readmeExamples().length;

beforeAll(() => {
  ok(sh('npm', ['run', 'build', '--silent'], ROOT));
  [packed] = JSON.parse(ok(sh('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], ROOT))) as [
    typeof packed,
  ];
  mkdirSync(project);
  cpSync(join(ROOT, 'spec/package/consumer'), project, { recursive: true });
  for (const [name, code] of readmeExamples()) writeFileSync(join(project, name), code);
  // docs/holders.md's worked example, importing the package by name as a user's copy would.
  const example = readFileSync(join(ROOT, 'docs/holders-example.ts'), 'utf8')
    .replaceAll("'../src/holder/index.js'", "'lessor-sim/holder'")
    .replaceAll("'../src/properties/index.js'", "'lessor-sim/properties'");
  writeFileSync(join(project, 'holders-example.ts'), example);
  cpSync(join(ROOT, 'docs/holders-example.unsafe.yaml'), join(project, 'holders-example.unsafe.yaml'));
  const pkg = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as Record<string, unknown>;
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ ...pkg, dependencies: { 'lessor-sim': `file:${join(work, packed.filename)}` } }, null, 2),
  );
  ok(sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error'], project));
}, 300_000);
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed package', () => {
  it('ships compiled code, types, schema, scenarios, docs and the licence, and no TypeScript sources', () => {
    const files = packed.files.map((f) => f.path);
    for (const f of [
      'dist/index.js',
      'dist/index.d.ts',
      'dist/index.js.map',
      'dist/properties/index.d.ts',
      'dist/bin/lessor-sim.js',
      'dist/bin/check-worker.js',
      'dist/bin/etcd-rpc.proto',
      'schema/scenario.schema.json',
      'scenarios/seed-runbook.yaml',
      'docs/properties.md',
      'README.md',
      'LICENSE',
      'package.json',
    ]) {
      expect(files, f).toContain(f);
    }
    expect(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))).toEqual([]);
  });

  it("type-checks the user's suite under a strict tsconfig", () => {
    ok(sh(process.execPath, [join(project, 'node_modules/typescript/bin/tsc'), '-p', project], project));
  });

  it("runs the user's vitest suite, importing lessor-sim by name", () => {
    // Colour codes would split the summary line; strip them.
    const out = ok(sh(process.execPath, [join(project, 'node_modules/vitest/vitest.mjs'), 'run'], project)).replace(
      /\x1b\[[0-9;]*m/g,
      '',
    );
    expect(readmeExamples().length).toBeGreaterThanOrEqual(6);
    expect(out).toMatch(new RegExp(`Test Files\\s+${testFiles} passed`));
    expect(out).toContain('# Counterexample for property');
  });

  it('loads every export from plain Node ESM', () => {
    expect(ok(sh(process.execPath, ['esm.mjs'], project))).toMatch(/^esm ok [0-9a-f]{64}$/m);
  });

  it('installs the lessor-sim command, which replays a shipped scenario and runs a campaign on worker threads', () => {
    const bin = join(project, 'node_modules/.bin/lessor-sim');
    expect(ok(sh(bin, ['--version'], project)).trim()).toBe(
      `lessor-sim ${(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version}`,
    );
    expect(ok(sh(bin, ['run', 'node_modules/lessor-sim/scenarios/seed-runbook.yaml', '--quiet'], project))).toContain(
      '9 passed, 0 failed',
    );
    expect(
      ok(sh(bin, ['check', '--runs', '2', '--workers', '2', '--seed', '1', '--property', 'grant-bounds'], project)),
    ).toContain('2 runs (indices 0..1), 0 with a violation');
  });
});
