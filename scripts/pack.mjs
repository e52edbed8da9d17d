#!/usr/bin/env node
// `npm run pack [-- --pack-destination DIR]`: the package tarball a user installs (nothing is published).
// It is packed from a staging copy, built there from the sources, so that packing never touches this
// checkout's dist/, and its package.json is the one a user needs: no scripts (an installed package has
// nothing to build: npm would warn about a `prepare` it cannot run), no devDependencies.
// Prints the tarball's path; `--json` prints `npm pack --json`'s answer instead.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({ options: { 'pack-destination': { type: 'string' }, json: { type: 'boolean' } } });
const destination = resolve(values['pack-destination'] ?? process.cwd());

const stage = mkdtempSync(join(tmpdir(), 'lessor-sim-pack-'));
try {
  execFileSync(process.execPath, ['--import', 'tsx', join(root, 'scripts/build.mjs'), '--out', join(stage, 'dist')], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  for (const entry of pkg.files)
    if (!entry.startsWith('!') && entry !== 'dist') cpSync(join(root, entry), join(stage, entry), { recursive: true });
  const { scripts: _scripts, devDependencies: _dev, ...shipped } = pkg;
  writeFileSync(join(stage, 'package.json'), `${JSON.stringify(shipped, null, 2)}\n`);
  const answer = execFileSync('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: stage,
    encoding: 'utf8',
  });
  process.stdout.write(values.json ? answer : `${join(destination, JSON.parse(answer)[0].filename)}\n`);
} finally {
  rmSync(stage, { recursive: true, force: true });
}
