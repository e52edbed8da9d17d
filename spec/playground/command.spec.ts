// `lessor-sim playground`: --build writes one self-contained page with the browser digest bundled in,
// and bad input exits 2 with a positioned message, before anything is built or served.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { cli } from '../../src/cli/cli.js';
import { bufferIO } from '../../src/cli/io.js';

const capture = () => {
  const io = bufferIO();
  return { out: io.stdout, err: io.stderr, io };
};
const runPlayground = (args: string[], io: ReturnType<typeof bufferIO>) =>
  cli(['playground', ...args], io, { version: 'test' });

describe('lessor-sim playground', () => {
  it('--build writes a self-contained index.html that opens the named file, with no node:crypto in it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lessor-sim-pg-build-'));
    try {
      const c = capture();
      expect(await runPlayground(['scenarios/renew-forwarding.yaml', '--build', dir], c.io)).toBe(0);
      expect(c.out[0]).toMatch(/^wrote .*index\.html/);
      const html = readFileSync(join(dir, 'index.html'), 'utf8');
      expect(html).toContain('"file":"scenarios/renew-forwarding.yaml"');
      expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
      expect(html).not.toContain('node:crypto');
      // The pure-TypeScript SHA-256's round constants are in the bundle.
      expect(html).toMatch(/1116352408|0x428a2f98/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('refuses an invalid scenario with file:line:col, and a bad port, with exit code 2', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lessor-sim-pg-bad-'));
    try {
      const bad = join(dir, 'bad.yaml');
      writeFileSync(bad, 'name: x\nsteps:\n  - { at: 1s, crash: { member: n1 } }\n  - { at: 0s, heal: {} }\n');
      const c = capture();
      expect(await runPlayground([bad, '--build', dir], c.io)).toBe(2);
      expect(c.err.join('\n')).toMatch(/bad\.yaml:4:\d+: .*time order/);
      const p = capture();
      expect(await runPlayground(['--port', 'abc'], p.io)).toBe(2);
      expect(p.err.join('\n')).toContain('--port takes an integer from 0 to 65535');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a port already in use with exit code 2 and one line, before building the page', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    try {
      const c = capture();
      expect(await runPlayground(['--port', String(port)], c.io)).toBe(2);
      expect(c.err).toEqual([`lessor-sim: --port ${port}: 127.0.0.1:${port} is already in use`]);
      expect(c.out).toEqual([]);
    } finally {
      taken.close();
    }
  });
});
