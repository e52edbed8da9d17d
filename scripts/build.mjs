#!/usr/bin/env node
// Builds the package: the library with tsc (.js, .d.ts, source maps with their sources inlined) and the
// command line as one esbuild bundle in bin/ (a single file starts several times faster than 230 modules).
// `--cli` rebuilds only the bundle (what `npm start` needs after an edit). `--out DIR` builds a whole
// package tree into DIR instead (scripts/pack.mjs does). Run under tsx (package.json does), since the
// playground's bundler configuration is TypeScript in src/.
//
// dist/ is never half-built: everything is written to a fresh folder beside it and swapped in with
// renames, so a `lessor-sim` call while a build runs (npm test builds the package) finds the old build
// or the new one, never none.
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url).pathname;
const { values } = parseArgs({ options: { cli: { type: 'boolean' }, out: { type: 'string' } } });
const cliOnly = values.cli === true;

/** Builds the library (unless cliOnly) and the bundle into `dist`, a folder that does not exist yet. */
async function buildInto(dist, cliOnly) {
  if (!cliOnly) {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', dist], {
      stdio: 'inherit',
    });
  }
  await build({
    // Chunks stay beside the entries: worker-pool.ts looks for check-worker.js beside itself, version.ts
    // for package.json two folders up.
    entryPoints: {
      'lessor-sim': join(root, 'src/cli/main.ts'),
      'check-worker': join(root, 'src/cli/check/check-worker.ts'),
    },
    outdir: join(dist, 'bin'),
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    // yaml and heap-js go into the bundle (CommonJS modules cost a parse each at start-up); the packages
    // only check and diff need stay outside. Bundled CommonJS may require Node's built-ins, hence `require`.
    external: ['fast-check', '@grpc/grpc-js', '@grpc/proto-loader', 'esbuild'],
    banner: {
      js:
        'import { createRequire as __lessorRequire } from ' +
        "'node:module';\nconst require = __lessorRequire(import.meta.url);",
    },
    // The maps carry their sources (sourcesContent), as tsc's do with inlineSources: the package ships no src/.
    sourcemap: 'linked',
    sourcesContent: true,
    logLevel: 'warning',
  });
  chmodSync(join(dist, 'bin/lessor-sim.js'), 0o755);
  // The playground's page script, bundled once here so that an installed package needs no bundler. It sits
  // beside bin/, not in it, so that `--cli` (npm start) leaves it alone.
  if (!cliOnly) {
    const { bundleApp, bundleLive } = await import('../src/playground-app/bundle.ts');
    writeFileSync(join(dist, 'playground-app.js'), await bundleApp());
    writeFileSync(join(dist, 'playground-live.js'), await bundleLive());
  }
  // serve's protos (etcd's names and numbers), where the bundled serve module and the real-etcd driver's client
  // look for them, and beside the library's serve/ (lessor-sim/serve).
  mkdirSync(join(dist, 'bin/serve'), { recursive: true });
  for (const f of ['rpc.proto', 'kv.proto']) copyFileSync(join(root, 'src/serve', f), join(dist, 'bin/serve', f));
  if (!cliOnly)
    for (const f of ['rpc.proto', 'kv.proto']) copyFileSync(join(root, 'src/serve', f), join(dist, 'serve', f));
}

/** Puts `fresh` where `target` is, the old one removed after the rename. */
function swap(fresh, target) {
  const old = `${fresh}.old`;
  if (existsSync(target)) renameSync(target, old);
  renameSync(fresh, target);
  rmSync(old, { recursive: true, force: true });
}

if (values.out !== undefined) {
  const out = resolve(values.out);
  rmSync(out, { recursive: true, force: true });
  await buildInto(out, false);
} else if (cliOnly) {
  mkdirSync(join(root, 'dist'), { recursive: true });
  const fresh = mkdtempSync(join(root, 'dist', '.bin-'));
  await buildInto(fresh, true);
  swap(join(fresh, 'bin'), join(root, 'dist/bin'));
  rmSync(fresh, { recursive: true, force: true });
} else {
  const fresh = mkdtempSync(join(root, '.dist-'));
  await buildInto(fresh, false);
  swap(fresh, join(root, 'dist'));
}
