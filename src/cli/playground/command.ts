/**
 * `lessor-sim playground [FILE] [--port N] [--open] [--build DIR]`: serves the page on 127.0.0.1 (the
 * simulation runs in the browser; the server only hands out one file) or writes it for any web host.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { BUG_NAMES } from '../../lessor/bugs.js';
import { loadScenario } from '../load.js';
import { buildPlayground } from './bundle.js';

export interface PlaygroundIO {
  out(line: string): void;
  err(line: string): void;
}

export const PLAYGROUND_USAGE = 'lessor-sim playground [FILE] [--port N] [--open] [--build DIR]   the lease playground in the browser';

/** Exit code when done building; when serving, resolves once the server listens (it then runs until killed). */
export async function runPlayground(argv: readonly string[], io: PlaygroundIO): Promise<number> {
  const { values, positionals } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { port: { type: 'string' }, open: { type: 'boolean', default: false }, build: { type: 'string' } },
  });
  if (positionals.length > 1) return usage(io, 'playground takes at most one scenario file');
  const file = positionals[0];
  if (file !== undefined) {
    const l = loadScenario(file, BUG_NAMES);
    if (!l.ok) {
      for (const m of l.messages) io.err(m);
      return 2;
    }
  }
  let port = 0;
  if (values.port !== undefined) {
    if (!/^\d+$/.test(values.port) || Number(values.port) > 65535) return usage(io, `--port takes a port number, got ${JSON.stringify(values.port)}`);
    port = Number(values.port);
  }
  const html = await buildPlayground(file);
  if (values.build !== undefined) {
    mkdirSync(values.build, { recursive: true });
    const out = join(values.build, 'index.html');
    writeFileSync(out, html);
    io.out(`wrote ${out} (${Math.round(html.length / 1024)} KiB, self-contained: open it from any web host or from disk)`);
    return 0;
  }
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split(/[?#]/)[0];
    if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found\n');
    }
  });
  await new Promise<void>((done, fail) => {
    server.once('error', fail);
    server.listen(port, '127.0.0.1', () => done());
  });
  const addr = server.address();
  const url = `http://127.0.0.1:${typeof addr === 'object' && addr !== null ? addr.port : port}/`;
  io.out(`lessor-sim playground at ${url} (Ctrl-C to stop)`);
  if (values.open) openBrowser(url, io);
  return 0;
}

function openBrowser(url: string, io: PlaygroundIO): void {
  const opener = ['/usr/bin/xdg-open', '/usr/bin/chromium', '/usr/bin/open'].find((p) => existsSync(p));
  if (opener === undefined) return io.err('--open: no browser found (xdg-open, chromium); open the URL yourself');
  spawn(opener, [url], { stdio: 'ignore', detached: true }).unref();
}

function usage(io: PlaygroundIO, message: string): number {
  io.err(`lessor-sim: ${message}\n\nusage: ${PLAYGROUND_USAGE}`);
  return 2;
}
