// serve's command line: help, refusals before anything listens, a taken port as exit 2 in one line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { lessorSim } from './child.js';

describe('lessor-sim serve, the command line', () => {
  it('has --help naming its flags', () => {
    const r = lessorSim(['serve', '--help']);
    expect(r.code).toBe(0);
    for (const flag of ['--listen', '--port', '--record', '--seed', '--profile']) expect(r.stdout).toContain(flag);
  });

  it('refuses an unknown flag and a bad port with exit 2', () => {
    expect(lessorSim(['serve', '--frobnicate']).code).toBe(2);
    const bad = lessorSim(['serve', '--port', 'abc']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--port takes a base port number');
  });

  it('exits 2 with one line when a member port is taken', async () => {
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', () => r()));
    const port = (taken.address() as { port: number }).port;
    try {
      // Member 1 listens on BASE + 1.
      const r = lessorSim(['serve', '--port', String(port - 1)]);
      expect(r.code).toBe(2);
      const lines = r.stderr.trim().split('\n');
      expect(lines[0]).toContain(`cannot listen on 127.0.0.1:${port} (EADDRINUSE)`);
    } finally {
      taken.close();
    }
  });

  it('refuses a record that is not one, before replaying', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'serve-cli-')), 'not-a-record.jsonl');
    writeFileSync(file, '{"name":"x"}\n');
    const r = lessorSim(['run', '--input', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('not a lessor-sim serve record');
  });

  it('refuses a record with a program event of a kind no program traces, naming the file and line', () => {
    const file = join(mkdtempSync(join(tmpdir(), 'serve-cli-')), 'odd-kind.jsonl');
    const header = { served: 1, scenario: null, name: 'x', seed: 1, profile: 'v3.5' };
    const odd = { t: 1000, kind: 'app', event: { member: 'a', kind: 'app-teleport', fields: {} } };
    writeFileSync(file, `${JSON.stringify(header)}\n${JSON.stringify(odd)}\n`);
    const r = lessorSim(['run', '--input', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: line 2: a program's event of kind "app-teleport", which no program traces`);
  });

  it('still asks for a FILE when run has neither FILE nor --input', () => {
    const r = lessorSim(['run']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('run: name at least one FILE');
  });
});
