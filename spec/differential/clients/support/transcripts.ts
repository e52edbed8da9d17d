// Golden transcripts (what real etcd 3.4.23's answers make each client print, normalised) and the
// line-level differences between a transcript and its golden one.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const EXPECTED = resolve(__dirname, '../expected');

/** LESSOR_SIM_WRITE_GOLDEN=1: a real-etcd run writes its transcript as the golden one instead of comparing. */
export const WRITE_GOLDEN = process.env.LESSOR_SIM_WRITE_GOLDEN === '1';

export const goldenPath = (name: string): string => join(EXPECTED, `${name}.txt`);

export function readGolden(name: string): string | undefined {
  const p = goldenPath(name);
  return existsSync(p) ? readFileSync(p, 'utf8') : undefined;
}

export function writeGolden(name: string, transcript: string): void {
  writeFileSync(goldenPath(name), transcript);
}

/** Lines of real etcd's transcript that the other one has replaced (`serve` is the replacement). */
export interface Hunk {
  /** 1-based line of the golden transcript where the hunk starts. */
  readonly line: number;
  readonly etcd: readonly string[];
  readonly serve: readonly string[];
}

/** The hunks that turn `golden` into `actual`, from their longest common subsequence of lines. */
export function diffLines(golden: string, actual: string): Hunk[] {
  const a = golden.split('\n');
  const b = actual.split('\n');
  const n = a.length;
  const m = b.length;
  // lcs[i][j]: longest common subsequence of a[i..] and b[j..].
  const lcs = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    const start = i;
    const etcd: string[] = [];
    const serve: string[] = [];
    while ((i < n || j < m) && !(i < n && j < m && a[i] === b[j])) {
      if (j >= m || (i < n && lcs[i + 1]![j]! >= lcs[i]![j + 1]!)) etcd.push(a[i++]!);
      else serve.push(b[j++]!);
    }
    hunks.push({ line: start + 1, etcd, serve });
  }
  return hunks;
}

export function describeHunks(hunks: readonly Hunk[]): string {
  return hunks
    .map((h) =>
      [`@ golden line ${h.line}`, ...h.etcd.map((l) => `- etcd:  ${l}`), ...h.serve.map((l) => `+ serve: ${l}`)].join(
        '\n',
      ),
    )
    .join('\n');
}
