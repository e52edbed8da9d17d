/**
 * Builds the playground page: the browser app and every src/ module it reaches, bundled by esbuild into
 * one script, with node:crypto's digest swapped for the pure-TypeScript SHA-256 (same bytes).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'esbuild';
import type { Baked, LibraryEntry } from './browser/library.js';
import { playgroundHtml } from './page.js';

/** The package root, found upward from here: its scenarios/ are the lessons, its src/ the app to bundle. */
function packageRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'lessor-sim')
      return dir;
    if (dirname(dir) === dir) throw new Error('lessor-sim playground: cannot find the lessor-sim package');
  }
}
const ROOT = packageRoot(dirname(fileURLToPath(import.meta.url)));
const ENTRY = join(ROOT, 'src/playground-app/browser/app.ts');
/** `serve --playground`'s page script (browser/live-app.ts). */
const LIVE_ENTRY = join(ROOT, 'src/playground-app/browser/live-app.ts');
const DIGEST = resolve(ROOT, 'src/trace/digest.ts');
const BROWSER_DIGEST = resolve(ROOT, 'src/trace/digest-browser.ts');

/** The one Node-only module the simulation reaches, replaced by its browser twin. */
const browserDigest: Plugin = {
  name: 'browser-digest',
  setup(build) {
    build.onResolve({ filter: /\/digest\.js$/ }, (args) => {
      const target = resolve(args.resolveDir, args.path.replace(/\.js$/, '.ts'));
      return target === DIGEST ? { path: BROWSER_DIGEST } : undefined;
    });
  },
};

/** Built once by scripts/build.mjs next to dist/bin (the bundled CLI), so an installed package needs no bundler. */
const PREBUILT = fileURLToPath(new URL('../playground-app.js', import.meta.url));
const PREBUILT_LIVE = fileURLToPath(new URL('../playground-live.js', import.meta.url));

/** The app script: the prebuilt one when the command runs compiled, else bundled now from the sources. */
export async function appScript(): Promise<string> {
  return existsSync(PREBUILT) ? readFileSync(PREBUILT, 'utf8') : bundleApp();
}

/** The live view's script, prebuilt beside the app's or bundled now. */
export async function liveScript(): Promise<string> {
  return existsSync(PREBUILT_LIVE) ? readFileSync(PREBUILT_LIVE, 'utf8') : bundleApp(LIVE_ENTRY);
}

export const bundleLive = (): Promise<string> => bundleApp(LIVE_ENTRY);

export async function bundleApp(entry = ENTRY): Promise<string> {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    plugins: [browserDigest],
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir)
    .flatMap((n) => {
      const p = join(dir, n);
      return statSync(p).isDirectory() ? yamlFiles(p) : /\.ya?ml$/.test(n) ? [p] : [];
    })
    .sort();
}

/** Every library scenario, by its path from the package root; `initial` is the file to open first. */
export function library(initialFile: string | undefined): Baked {
  const entries: LibraryEntry[] = yamlFiles(join(ROOT, 'scenarios')).map((p) => ({
    file: relative(ROOT, p),
    text: readFileSync(p, 'utf8'),
  }));
  const runbook = entries.find((e) => e.file === 'scenarios/seed-runbook.yaml') ?? entries[0]!;
  const initial = initialFile === undefined ? runbook : { file: initialFile, text: readFileSync(initialFile, 'utf8') };
  // The runbook first: it is the lesson to start with.
  return { library: [runbook, ...entries.filter((e) => e !== runbook)], initial };
}

export async function buildPlayground(initialFile?: string): Promise<string> {
  return playgroundHtml(await appScript(), library(initialFile));
}
