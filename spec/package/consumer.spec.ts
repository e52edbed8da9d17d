// The package as a user gets it: packed with `npm run pack` (built in a staging copy, so this checkout's
// dist/ is never touched), installed with the README's install line, as written, into a fresh project
// beside the "clone" with a strict tsconfig (strict, exactOptionalPropertyTypes, noUncheckedIndexedAccess),
// which type-checks and runs its own vitest suite importing lessor-sim by name, loads every export from
// plain Node, and runs the installed command. The user's files are spec/package/consumer/ (every *.test.ts
// there runs, so adding an example is adding a file), the README's API examples and docs/vitest.md's
// worked example (each ```ts block after an `<!-- example: NAME.test.ts -->` line).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../..');
const work = mkdtempSync(join(tmpdir(), 'lessor-package-'));
// The README's install line names the tarball as ../lessor-sim/lessor-sim-VERSION.tgz from the user's project.
const clone = join(work, 'lessor-sim');
const project = join(work, 'my-project');
let packed: { filename: string; files: { path: string }[] };
/** What npm said while running the README's install lines. */
let installLog = '';

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

/** The worked examples: [file name, code] of the README's and docs/vitest.md's marked ```ts blocks. */
function readmeExamples(): [string, string][] {
  return ['README.md', 'docs/vitest.md'].flatMap((doc) =>
    [
      ...readFileSync(join(ROOT, doc), 'utf8').matchAll(
        /^<!-- example: ([\w.-]+\.test\.ts) -->\n```ts\n([\s\S]*?)^```$/gm,
      ),
    ].map((m): [string, string] => [m[1]!, m[2]!]),
  );
}

/** The README's install block, each line as written. */
function installLines(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const block = /^<!-- install: [^\n]*-->\n```sh\n([\s\S]*?)^```$/m.exec(readme);
  if (block === null) throw new Error('README.md has no <!-- install: --> block');
  return block[1]!.trim().split('\n');
}
const testFiles =
  readdirSync(join(ROOT, 'spec/package/consumer')).filter((f) => f.endsWith('.test.ts')).length +
  readmeExamples().length;

beforeAll(() => {
  mkdirSync(clone);
  [packed] = JSON.parse(
    ok(sh(process.execPath, ['--import', 'tsx', 'scripts/pack.mjs', '--json', '--pack-destination', clone], ROOT)),
  ) as [typeof packed];
  mkdirSync(project);
  cpSync(join(ROOT, 'spec/package/consumer'), project, { recursive: true });
  for (const [name, code] of readmeExamples()) writeFileSync(join(project, name), code);
  // docs/holders.md's worked example, importing the package by name as a user's copy would.
  const example = readFileSync(join(ROOT, 'docs/holders-example.ts'), 'utf8')
    .replaceAll("'../src/holder/index.js'", "'lessor-sim/holder'")
    .replaceAll("'../src/properties/index.js'", "'lessor-sim/properties'");
  writeFileSync(join(project, 'holders-example.ts'), example);
  cpSync(join(ROOT, 'docs/holders-example.unsafe.yaml'), join(project, 'holders-example.unsafe.yaml'));
  // The README's install lines as written (quiet and offline-first only through npm's environment).
  const quiet = { ...env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_prefer_offline: 'true' };
  for (const line of installLines()) {
    const r = spawnSync('sh', ['-c', line], { cwd: project, env: quiet, encoding: 'utf8', maxBuffer: 64 << 20 });
    if (r.status !== 0) throw new Error(`README install line failed: ${line}\n${r.stdout}\n${r.stderr}`);
    installLog += `${r.stdout}${r.stderr}`;
  }
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
      'dist/vitest/index.js',
      'dist/vitest/index.d.ts',
      'dist/bin/lessor-sim.js',
      'dist/bin/check-worker.js',
      'dist/bin/serve/rpc.proto',
      'dist/bin/serve/kv.proto',
      'dist/serve/index.js',
      'dist/serve/index.d.ts',
      'dist/serve/rpc.proto',
      'dist/serve/kv.proto',
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

  it('ships a package.json with no scripts and no dev dependencies, and source maps that carry their sources', () => {
    const installed = join(project, 'node_modules/lessor-sim');
    const pkg = JSON.parse(readFileSync(join(installed, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(pkg.scripts).toBeUndefined();
    // npm 11 lists packages with install scripts it has not been allowed to run; lessor-sim is not one.
    expect(installLog).not.toMatch(/lessor-sim@\S+ \((prepare|install|postinstall)/);
    expect(pkg.devDependencies).toBeUndefined();
    expect(pkg.peerDependencies).toMatchObject({ 'fast-check': expect.any(String), vitest: expect.any(String) });
    // The tarball holds no src/: a map whose sources are not inlined would point a stack frame at nothing.
    const maps = packed.files.map((f) => f.path).filter((f) => f.endsWith('.map'));
    expect(maps.length).toBeGreaterThan(100);
    for (const m of maps) {
      const map = JSON.parse(readFileSync(join(installed, m), 'utf8')) as {
        sources: string[];
        sourcesContent?: string[];
      };
      expect(map.sourcesContent?.length, m).toBe(map.sources.length);
      expect(
        map.sourcesContent!.every((c) => typeof c === 'string' && c.length > 0),
        m,
      ).toBe(true);
    }
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
    // vitest-failure.test.ts left a counterexample that the installed command replays to its failure.
    const cx = join(project, 'counterexamples/a-bug-switch-on.yaml');
    const replay = sh(join(project, 'node_modules/.bin/lessor-sim'), ['run', cx, '--quiet'], project);
    expect(replay.status, replay.stdout).toBe(1);
    expect(replay.stdout).toMatch(/^FAIL {2}/m);
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
