#!/usr/bin/env node
// Builds the package: the library with tsc into dist/ (.js, .d.ts, source maps) and the command line as
// one esbuild bundle in dist/bin/ (a single file starts several times faster than 230 modules).
// `--cli` rebuilds only the bundle (what `npm start` needs after an edit). Run under tsx (package.json does),
// since the playground's bundler configuration is TypeScript in src/.
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';

const root = new URL('..', import.meta.url);
const path = (p) => new URL(p, root).pathname;
const cliOnly = process.argv.includes('--cli');

if (!cliOnly) {
  rmSync(path('dist'), { recursive: true, force: true });
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  execFileSync(process.execPath, [tsc, '-p', path('tsconfig.build.json')], { stdio: 'inherit' });
}
rmSync(path('dist/bin'), { recursive: true, force: true });
await build({
  // Chunks stay beside the entries: worker-pool.ts looks for check-worker.js beside itself, version.ts
  // for package.json two folders up.
  entryPoints: { 'lessor-sim': path('src/cli/main.ts'), 'check-worker': path('src/cli/check/check-worker.ts') },
  outdir: path('dist/bin'),
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
  sourcemap: 'linked',
  logLevel: 'warning',
});
chmodSync(path('dist/bin/lessor-sim.js'), 0o755);
// The playground's page script, bundled once here so that an installed package needs no bundler. It sits
// beside dist/bin, not in it, so that `--cli` (npm start) leaves it alone.
if (!cliOnly) {
  const { bundleApp } = await import('../src/cli/playground/bundle.ts');
  writeFileSync(path('dist/playground-app.js'), await bundleApp());
}
// The real-etcd driver loads etcd's protos beside its own module at run time.
copyFileSync(path('src/cli/differential/etcd-rpc.proto'), path('dist/bin/etcd-rpc.proto'));
// serve's protos, where the bundled serve module looks for them (dist/bin/serve/).
for (const dir of ['dist/bin/serve']) {
  mkdirSync(path(dir), { recursive: true });
  for (const f of ['rpc.proto', 'kv.proto']) copyFileSync(path(`src/serve/${f}`), path(`${dir}/${f}`));
}
