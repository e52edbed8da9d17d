/**
 * `lessor-sim playground [FILE] [--port N] [--open] [--build DIR]` (flags in commands/playground.ts): serves the page
 * on 127.0.0.1 (the
 * simulation runs in the browser; the server only hands out one file) or writes it for any web host.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { writeOutput } from '../cli/output-path.js';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { CliError } from '../cli/errors.js';
import { EXIT } from '../cli/exit-codes.js';
import type { CliIO } from '../cli/io.js';
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
  if (values.build !== undefined) {
    const html = await buildPlayground(file);
    mkdirSync(values.build, { recursive: true });
    const out = join(values.build, 'index.html');
    writeOutput(out, html);
    io.out(
      `wrote ${out} (${Math.round(html.length / 1024)} KiB, self-contained: open it from any web host or from disk)`,
    );
    return 0;
  }
  // The port is taken first, so a port in use is refused at once, before the page is built.
  let html = '';
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split(/[?#]/)[0];
    if (html === '') {
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' });
      res.end('the page is being built\n');
    } else if (path === '/' || path === '/index.html') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(html);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found\n');
    }
  });
  await new Promise<void>((done, fail) => {
    server.once('error', (e: NodeJS.ErrnoException) => {
      // A port someone else holds, or one this user may not bind, is the user's situation: exit 2, one line.
      if (e.code === 'EADDRINUSE')
        fail(new CliError(`--port ${port}: 127.0.0.1:${port} is already in use`, EXIT.usage));
      else if (e.code === 'EACCES')
        fail(new CliError(`--port ${port}: not allowed to listen on 127.0.0.1:${port}`, EXIT.usage));
      else fail(e);
    });
    server.listen(port, '127.0.0.1', () => done());
  });
  try {
    html = await buildPlayground(file);
  } catch (e) {
    server.close();
    throw e;
  }
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
