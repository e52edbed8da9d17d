/**
 * `lessor-sim playground [FILE] [--port N] [--open] [--build DIR]` (flags in commands/playground.ts): serves the page
 * on 127.0.0.1 (the
 * simulation runs in the browser; the server only hands out one file) or writes it for any web host.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { writeOutput } from '../output-path.js';
import { createServer } from 'node:http';
import { join } from 'node:path';
import type { CliIO } from '../io.js';
import { buildPlayground } from './bundle.js';

export interface PlaygroundOptions {
  /** 0: a free port. */
  readonly port: number;
  readonly open: boolean;
  /** Write DIR/index.html instead of serving. */
  readonly build: string | undefined;
}

/** Exit code when done building; when serving, resolves once the server listens (it then runs until killed). */
export async function runPlayground(file: string | undefined, values: PlaygroundOptions, io: CliIO): Promise<number> {
  const port = values.port;
  const html = await buildPlayground(file);
  if (values.build !== undefined) {
    mkdirSync(values.build, { recursive: true });
    const out = join(values.build, 'index.html');
    writeOutput(out, html);
    io.out(
      `wrote ${out} (${Math.round(html.length / 1024)} KiB, self-contained: open it from any web host or from disk)`,
    );
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

function openBrowser(url: string, io: CliIO): void {
  const opener = ['/usr/bin/xdg-open', '/usr/bin/chromium', '/usr/bin/open'].find((p) => existsSync(p));
  if (opener === undefined) return io.err('--open: no browser found (xdg-open, chromium); open the URL yourself');
  spawn(opener, [url], { stdio: 'ignore', detached: true }).unref();
}
