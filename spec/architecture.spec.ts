// Static checks on the source tree: determinism by construction and imports that only point downward.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve, dirname } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(__dirname, '../src');

/** Layers, lowest first. A file may import its own layer or any lower one. */
const LAYERS: Record<string, number> = {
  // etcd versions, historical bugs and proposed fixes: data every layer reads.
  switches: 0,
  clock: 0,
  trace: 0,
  lessor: 1,
  cluster: 2,
  client: 3,
  holder: 3.5,
  // Signals only read the trace; they sit below scenario so its expects can evaluate alerts.
  signals: 3.8,
  scenario: 4,
  properties: 5,
  report: 6,
  playground: 7,
  // The vitest entry: a front end for the user's test suites (it writes counterexample files).
  vitest: 7.5,
  // Front ends on real sockets and processes (programs under test), below the CLI that drives them.
  apps: 7.5,
  cli: 8,
  // Products the CLI runs, each a top-level folder: the real-etcd driver of `diff` and the playground's
  // browser app (its page, bundler and command).
  'real-etcd': 8,
  'playground-app': 8,
  // serve is a front end beside cli: its pacing loop is the other place that reads the wall clock.
  serve: 8,
};

/** The front ends: the only layers that may read the wall clock and set real timers. */
const WALL_CLOCK_LAYERS = new Set(['cli', 'apps', 'serve', 'real-etcd', 'playground-app']);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const layerOf = (file: string): string => relative(SRC, file).split('/')[0]!;
const rank = (layer: string): number => LAYERS[layer] ?? (layer.endsWith('.ts') ? 99 : -1);

describe('source tree', () => {
  const all = files(SRC);

  it('has a known layer for every folder under src/', () => {
    const unknown = [...new Set(all.map(layerOf))].filter((l) => rank(l) < 0);
    expect(unknown).toEqual([]);
  });

  it('reads no wall-clock time and no ambient randomness outside the front ends', () => {
    const forbidden = /\b(Date\.now|performance\.now|Math\.random|setTimeout|setInterval|new Date\(\s*\))/;
    const offenders = all
      .filter((f) => !WALL_CLOCK_LAYERS.has(layerOf(f)))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .map((line, i) => [f, i + 1, line] as const)
          .filter(([, , line]) => forbidden.test(line) && !/^\s*(\/\/|\*)/.test(line)),
      )
      .map(([f, n, line]) => `${relative(SRC, f)}:${n}: ${line.trim()}`);
    expect(offenders).toEqual([]);
  });

  it('only imports downward through the layers', () => {
    const bad: string[] = [];
    for (const f of all) {
      const from = layerOf(f);
      for (const m of readFileSync(f, 'utf8').matchAll(/from\s+'(\.[^']+)'/g)) {
        const target = resolve(dirname(f), m[1]!);
        const to = layerOf(target);
        if (rank(to) > rank(from)) bad.push(`${relative(SRC, f)} (${from}) imports ${m[1]} (${to})`);
      }
    }
    expect(bad).toEqual([]);
  });

  it('keeps every source line within 120 characters', () => {
    // Biome's lineWidth; it breaks code, while long strings, comments and regexes are split by hand.
    const ROOT = resolve(__dirname, '..');
    const long = ['src', 'spec', 'bench']
      .flatMap((dir) => files(join(ROOT, dir)))
      .flatMap((file) =>
        readFileSync(file, 'utf8')
          .split('\n')
          .flatMap((line, i) => ([...line].length > 120 ? [`${relative(ROOT, file)}:${i + 1}`] : [])),
      );
    expect(long).toEqual([]);
  });

  it('would catch a forbidden call (the check itself can fail)', () => {
    expect(/\bDate\.now/.test('const t = Date.now();')).toBe(true);
  });
});
