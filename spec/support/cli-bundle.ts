// The CLI and its check worker bundled as the package build does, for specs that start many CLI processes
// (shards, Slurm jobs): each then starts in a fraction of a second instead of loading tsx.
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(__dirname, '../..');

/** Writes OUTDIR/lessor-sim.js (and the worker beside it). OUTDIR must sit inside the checkout, so the
 * bundle finds node_modules and package.json. */
export async function bundleCli(outdir: string): Promise<void> {
  await build({
    entryPoints: {
      'lessor-sim': join(ROOT, 'src/cli/main.ts'),
      'check-worker': join(ROOT, 'src/cli/check/check-worker.ts'),
    },
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['fast-check'],
    banner: { js: "import { createRequire as __r } from 'node:module';\nconst require = __r(import.meta.url);" },
    logLevel: 'warning',
  });
}
