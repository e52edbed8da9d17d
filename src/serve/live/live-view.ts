/**
 * `serve --playground`: the live view of the served cluster on 127.0.0.1. GET / is the page, GET /events a
 * stream of Server-Sent Events (one LiveFrame every FRAME_MS of wall time, at the paced virtual instant),
 * POST /fault a clicked fault, which enters the served cluster through serve's own input path (so it is
 * recorded and replays like any input). node:http only: the page needs no more than a one-way stream.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Micros } from '../../clock/time.js';
import { CliError } from '../../cli/errors.js';
import { EXIT } from '../../cli/exit-codes.js';
import { DeadlineBook } from '../../playground/deadlines.js';
import { snapshot } from '../../playground/snapshot.js';
import type { ScenarioRun } from '../../scenario/replay/runner.js';
import { formatEvent, isKindIn, MEMBER_FAULT_KINDS, type TraceEvent } from '../../trace/trace.js';
import { liveFaultOf, whyNot, type LiveFault } from './faults.js';
import { encodeSnapshot, type LiveFrame } from './frame.js';
import { LiveObserver } from './observer.js';

/** Wall time between two frames: the page animates in between. */
export const FRAME_MS = 100;
/** At most this many trace lines per frame. */
const FRAME_LINES = 40;
/** What the page's "what happened" list shows of the trace (lease events from the acting primary only). */
const SHOWN = new Set([
  ...MEMBER_FAULT_KINDS,
  'served-fault',
  'served-call',
  'raft-role',
  'lessor-promote',
  'lessor-demote',
  'step',
  'step-error',
  'expect-pass',
  'expect-fail',
]);
const PRIMARY_ONLY = new Set(['lease-grant', 'lease-revoke', 'lease-expired', 'lease-checkpoint']);

/** What serve hands the live view once its cluster runs. */
export interface LiveCluster {
  readonly run: ScenarioRun;
  /** Member name → client URL. */
  readonly endpoints: Readonly<Record<string, string>>;
  /** The scenario's end, or undefined when serve runs until stopped. */
  readonly endUs: Micros | undefined;
  /** Raft's tick (the heartbeat interval): the followers' election clocks count these. */
  readonly tickUs: Micros;
  /** Enters a fault at the current virtual instant, as serve enters a client's request. */
  inject(f: LiveFault): void;
}

export class LiveView {
  /** Give this to the run (RunOptions.observer) before the cluster is built. */
  readonly observer = new LiveObserver();
  private server: Server | undefined;
  private port = 0;
  private cluster: LiveCluster | undefined;
  private readonly streams = new Set<ServerResponse>();
  private timer: NodeJS.Timeout | undefined;
  private seen = 0;
  private readonly faults: TraceEvent[] = [];
  private readonly conns: Record<string, { to: string; methods: string[] }> = {};
  private readonly deadlines = new DeadlineBook();

  /** `port` 0: a free one. `html`: the page, built before serve starts its clock. */
  constructor(
    private readonly wantPort: number,
    private readonly html: string,
  ) {}

  /** Listens on 127.0.0.1; resolves to the page's URL. A port that cannot be had is exit 2. */
  async listen(): Promise<string> {
    const server = createServer((req, res) => this.handle(req, res));
    await new Promise<void>((done, fail) => {
      server.once('error', (e: NodeJS.ErrnoException) => {
        const where = `127.0.0.1:${this.wantPort}`;
        if (e.code === 'EADDRINUSE' || e.code === 'EACCES')
          fail(new CliError(`--playground-port ${this.wantPort}: cannot listen on ${where} (${e.code})`, EXIT.usage));
        else fail(e);
      });
      server.listen(this.wantPort, '127.0.0.1', () => done());
    });
    this.server = server;
    const addr = server.address();
    this.port = typeof addr === 'object' && addr !== null ? addr.port : this.wantPort;
    return `http://127.0.0.1:${this.port}/`;
  }

  /** Starts the frames. */
  attach(c: LiveCluster): void {
    this.cluster = c;
    this.timer = setInterval(() => this.frame(), FRAME_MS);
  }

  close(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    for (const s of this.streams) s.end();
    this.streams.clear();
    this.server?.close();
    this.server?.closeAllConnections();
    this.server = undefined;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    // Only this page's own origin: a web page elsewhere must not click faults (DNS rebinding, cross-site POST).
    const host = req.headers.host;
    if (host !== `127.0.0.1:${this.port}` && host !== `localhost:${this.port}`) return plain(res, 403, 'forbidden');
    const path = (req.url ?? '/').split(/[?#]/)[0];
    if (req.method === 'GET' && (path === '/' || path === '/index.html')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      return void res.end(this.html);
    }
    if (req.method === 'GET' && path === '/events') {
      res.writeHead(200, {
        'content-type': 'text/event-stream',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      res.write(': lessor-sim serve live view\n\n');
      this.streams.add(res);
      req.on('close', () => this.streams.delete(res));
      return;
    }
    if (req.method === 'POST' && path === '/fault') return this.fault(req, res);
    plain(res, 404, 'not found');
  }

  private fault(req: IncomingMessage, res: ServerResponse): void {
    // A JSON content type cannot be sent cross-origin without a preflight, which this server never answers.
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? ''))
      return plain(res, 415, 'expected content-type: application/json');
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => {
      body += chunk;
      if (body.length > 4096) req.destroy();
    });
    req.on('end', () => {
      const c = this.cluster;
      if (c === undefined || c.run.done || c.run.cluster === undefined)
        return json(res, 409, { error: 'the served cluster is not running' });
      let parsed: unknown;
      try {
        parsed = JSON.parse(body);
      } catch {
        return json(res, 400, { error: 'not JSON' });
      }
      const f = liveFaultOf(parsed, c.run.cluster.names);
      if (typeof f === 'string') return json(res, 400, { error: f });
      const why = whyNot(c.run.cluster, f);
      if (why !== undefined) return json(res, 409, { error: why });
      c.inject(f);
      json(res, 200, { t: c.run.now });
    });
  }

  private frame(): void {
    const c = this.cluster;
    const cluster = c?.run.cluster;
    if (c === undefined || cluster === undefined) return;
    const t = c.run.now;
    const events = c.run.trace.events;
    const lines: string[] = [];
    const primary = cluster.leader()?.name;
    for (; this.seen < events.length; this.seen++) {
      const e = events[this.seen]!;
      this.deadlines.fold(e);
      if (isKindIn(e, MEMBER_FAULT_KINDS)) this.faults.push(e);
      if (e.kind === 'served-call' && e.fields !== undefined) {
        const { to, method } = e.fields;
        const c = (this.conns[e.member] ??= { to, methods: [] });
        if (!c.methods.includes(method)) c.methods.push(method);
      }
      if (SHOWN.has(e.kind) || (PRIMARY_ONLY.has(e.kind) && e.member === primary)) lines.push(formatEvent(e));
    }
    const seen = this.observer.drain();
    if (this.streams.size === 0) return;
    const frame: LiveFrame = {
      t,
      snap: encodeSnapshot(snapshot(t, cluster, c.run.result().labels, this.deadlines, c.run.clients())),
      ...seen,
      faults: this.faults,
      lines: lines.slice(-FRAME_LINES),
      endUs: c.endUs ?? null,
      tickUs: c.tickUs,
      endpoints: c.endpoints,
      conns: this.conns,
    };
    const data = `data: ${JSON.stringify(frame, (_k, v) => (typeof v === 'bigint' ? v.toString() : v))}\n\n`;
    for (const s of this.streams) s.write(data);
  }
}

function plain(res: ServerResponse, code: number, text: string): void {
  res.writeHead(code, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
}

function json(res: ServerResponse, code: number, v: unknown): void {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify(v));
}
