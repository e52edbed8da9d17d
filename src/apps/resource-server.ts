/**
 * The fenced resource and the belief board over HTTP, on loopback, for programs under test:
 *
 *     POST /resources/NAME  {"holder": "a", "token": 12, "value": "…"}  → 200 accepted | 409 rejected
 *     POST /beliefs/NAME    {"holding": true, "lease": "…", "token": 12, "key": "/locks/x", "validForMs": 6000}
 *     GET  /resources/NAME  → {"highest": 12, "accepted": 3, "rejected": 1}
 *
 * A write is judged on arrival by the same FencedResource the built-in holders write to (`fence:
 * lower` rejects tokens below the highest accepted; `strict` is the runbook's SQL, `fencing_revision <
 * $1`, which rejects equal ones too). Writes and beliefs land in the trace at the instant `clock` reads
 * when the request arrives (the wall clock against real etcd; serve's paced virtual clock under serve).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { FencedResource } from '../client/fenced-resource.js';
import type { Micros } from '../clock/time.js';
import type { Trace } from '../trace/trace.js';
import { BeliefBook, parseBelief } from './beliefs.js';

export type Fence = 'lower' | 'strict';

export interface ResourceServerOptions {
  readonly trace: Trace;
  readonly clock: { now(): Micros };
  readonly fence?: Fence;
  /** Default 127.0.0.1; the server is meant for programs on this machine. */
  readonly host?: string;
  /** Default 0: any free port. */
  readonly port?: number;
}

/** Names become trace members and URL path segments: kept to characters that print and split safely. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const MAX_BODY = 64 * 1024;

export class ResourceServer {
  readonly beliefs: BeliefBook;
  private readonly resources = new Map<string, FencedResource>();
  private server: Server | undefined;
  private base = '';

  constructor(private readonly opts: ResourceServerOptions) {
    this.beliefs = new BeliefBook(opts.trace, opts.clock);
  }

  /** Listens; resolves with the base URL (`http://127.0.0.1:PORT`). */
  async start(): Promise<string> {
    const server = createServer((req, res) => this.handle(req, res));
    this.server = server;
    const host = this.opts.host ?? '127.0.0.1';
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.opts.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
    this.base = `http://${host}:${(server.address() as AddressInfo).port}`;
    return this.base;
  }

  /** The URL a program writes to for resource `name` (its RESOURCE_URL). */
  resourceUrl(name: string): string {
    return `${this.base}/resources/${name}`;
  }

  /** The URL a program posts its beliefs under (its BELIEFS_URL; it appends `/HOLDER`). */
  get beliefsUrl(): string {
    return `${this.base}/beliefs`;
  }

  /** The resource of that name (created on first use, also by a write to it). */
  resource(name: string): FencedResource {
    let r = this.resources.get(name);
    if (r === undefined) {
      r = new FencedResource(name, this.opts.clock, {
        trace: this.opts.trace,
        strict: this.opts.fence === 'strict',
      });
      this.resources.set(name, r);
    }
    return r;
  }

  async close(): Promise<void> {
    const s = this.server;
    this.server = undefined;
    if (s === undefined) return;
    s.closeAllConnections();
    await new Promise<void>((resolve) => s.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const m = /^\/(resources|beliefs)\/([^/?#]*)$/.exec(req.url ?? '');
    const name = m === null ? undefined : safeDecode(m[2]!);
    if (m === null || name === undefined || !NAME.test(name))
      return reply(res, 404, { error: 'expected /resources/NAME or /beliefs/NAME (NAME: letters, digits, . _ -)' });
    if (m[1] === 'resources' && req.method === 'GET') {
      const r = this.resource(name);
      return reply(res, 200, { highest: r.highestToken, accepted: r.accepted, rejected: r.rejected });
    }
    if (req.method !== 'POST') return reply(res, 405, { error: `${req.method} is not allowed here; use POST` });
    readJson(req, (err, body) => {
      if (err !== undefined) return reply(res, err.startsWith('body') ? 413 : 400, { error: err });
      if (m[1] === 'beliefs') {
        const b = parseBelief(body);
        if (!b.ok) return reply(res, 400, { error: b.error });
        this.beliefs.report(name, b.value);
        return reply(res, 200, { ok: true });
      }
      const w = parseWrite(body);
      if (typeof w === 'string') return reply(res, 400, { error: w });
      const r = this.resource(name);
      const accepted = r.write(w.holder, w.token, w.value);
      return reply(res, accepted ? 200 : 409, { accepted, highest: r.highestToken });
    });
  }
}

function parseWrite(body: unknown): { holder: string; token: number; value?: string } | string {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    return 'expected a JSON object like {"holder": "a", "token": 12, "value": "x"}';
  const b = body as Record<string, unknown>;
  if (typeof b.holder !== 'string' || !NAME.test(b.holder))
    return '"holder" must be a name (letters, digits, . _ -; at most 64)';
  if (typeof b.token !== 'number' || !Number.isSafeInteger(b.token) || b.token < 0)
    return '"token" must be a whole number >= 0 (the fencing token)';
  if (b.value !== undefined && typeof b.value !== 'string') return '"value" must be a string';
  return { holder: b.holder, token: b.token, ...(b.value !== undefined ? { value: b.value } : {}) };
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s);
  } catch {
    return undefined;
  }
}

function readJson(req: IncomingMessage, done: (err: string | undefined, body?: unknown) => void): void {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  req.on('data', (c: Buffer) => {
    size += c.length;
    if (size > MAX_BODY) over = true;
    else chunks.push(c);
  });
  req.on('end', () => {
    if (over) return done(`body over ${MAX_BODY} bytes`);
    try {
      done(undefined, JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch {
      done('the body is not JSON');
    }
  });
  req.on('error', () => done('the request broke off'));
}

function reply(res: ServerResponse, status: number, body: unknown): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}
