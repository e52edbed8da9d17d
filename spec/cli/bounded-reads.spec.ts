// Files a user names are read with their limit checked while reading, and only if they are regular files:
// `run /dev/zero` is refused at once instead of filling memory, a FIFO is refused instead of blocking
// forever, an oversized report is refused without being read whole.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import { bufferIO } from '../../src/cli/io.js';

const dir = mkdtempSync(join(tmpdir(), 'lessor-bounded-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function run(argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const io = bufferIO();
  const code = await cli(argv, io, { version: 'test' });
  return { code, out: io.stdout.join('\n'), err: io.stderr.join('\n') };
}

const fifo = join(dir, 'pipe.yaml');
execFileSync('mkfifo', [fifo]);

describe('reading named files', () => {
  it.each([
    ['/dev/zero', 'it is a character device, not a file'],
    [fifo, 'it is a FIFO, not a file'],
  ])('run %s is refused at once: %s', async (file, message) => {
    const r = await run(['run', file]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${file}: cannot read the file: ${message}`);
  });

  it('refuses a scenario past 1 MiB while reading it', async () => {
    const big = join(dir, 'big.yaml');
    writeFileSync(big, 'name: big\n');
    truncateSync(big, 1024 * 1024 * 1024);
    const r = await run(['run', big]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('file is larger than 1048576 bytes, the limit for a scenario file (1 MiB)');
  });

  it('check merge refuses a device, a FIFO and an oversized report, and passes over a FIFO in a folder', async () => {
    for (const [file, message] of [
      ['/dev/zero', 'it is a character device, not a file'],
      [fifo, 'it is a FIFO, not a file'],
    ]) {
      const r = await run(['check', 'merge', file!]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`${file}: cannot read the file: ${message}`);
    }
    const big = join(dir, 'big.json');
    writeFileSync(big, '{"format": "lessor-sim check report", ');
    truncateSync(big, 200 * 1024 * 1024);
    const r = await run(['check', 'merge', big]);
    expect(r.err).toContain('file is larger than 134217728 bytes, the limit for a check report (128 MiB)');
    const folder = join(dir, 'folder');
    mkdirSync(folder);
    execFileSync('mkfifo', [join(folder, 'x.json')]);
    expect((await run(['check', 'merge', folder])).err).toMatch(/folder: holds no check report/);
  });
});
