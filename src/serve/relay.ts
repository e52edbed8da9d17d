/**
 * The TCP front door of one served member, between real clients and the member's gRPC server, so that the
 * member's faults look on the wire as they do with a real etcd process: `frozen` (SIGSTOP) stops reading and
 * writing every socket, so requests queue in the kernel and HTTP/2 pings go unanswered; `down` (crashed)
 * closes the listening port, so connections are refused, and resets the open ones; `up` serves again.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';
import { AuthorityRewriter } from './h2-authority.js';

export type MemberWire = 'up' | 'frozen' | 'down';

interface Pair {
  readonly client: Socket;
  readonly upstream: Socket;
}

export class Relay {
  private server: Server | undefined;
  private readonly pairs = new Set<Pair>();
  private state: MemberWire = 'up';

  constructor(
    readonly host: string,
    /** The port clients connect to; 0 lets the kernel choose (read it back from `port` after `listen`). */
    public port: number,
    private readonly upstreamPort: number,
    /** Reports a failure to listen again after a restart (the port was taken meanwhile). */
    private readonly onListenError: (e: NodeJS.ErrnoException) => void,
  ) {}

  /** Listens; rejects with the socket error (EADDRINUSE, EACCES …) when the port cannot be had. */
  listen(): Promise<void> {
    const server = createServer((s) => this.accept(s));
    this.server = server;
    return new Promise((done, fail) => {
      server.once('error', fail);
      server.listen(this.port, this.host, () => {
        server.off('error', fail);
        server.on('error', (e) => this.onListenError(e));
        const a = server.address();
        if (typeof a === 'object' && a !== null) this.port = a.port;
        done();
      });
    });
  }

  set(state: MemberWire): void {
    if (state === this.state) return;
    const was = this.state;
    this.state = state;
    if (state === 'down') {
      this.server?.close();
      this.server = undefined;
      for (const p of this.pairs) this.drop(p);
      return;
    }
    if (was === 'down') {
      this.listen().catch((e: NodeJS.ErrnoException) => this.onListenError(e));
      return;
    }
    for (const p of this.pairs) this.flow(p);
  }

  close(): void {
    this.state = 'down';
    this.server?.close();
    this.server = undefined;
    for (const p of this.pairs) this.drop(p);
  }

  private accept(client: Socket): void {
    if (this.state === 'down') return void client.destroy();
    const upstream = connect(this.upstreamPort, '127.0.0.1');
    const p: Pair = { client, upstream };
    this.pairs.add(p);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    const forward = (from: Socket, to: Socket, rewrite?: AuthorityRewriter): void => {
      from.on('data', (d: Buffer) => {
        if (!to.write(rewrite === undefined ? d : rewrite.push(d))) from.pause();
      });
      to.on('drain', () => {
        if (this.state === 'up') from.resume();
      });
    };
    forward(client, upstream, new AuthorityRewriter());
    forward(upstream, client);
    const end = (): void => this.drop(p);
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
    this.flow(p);
  }

  private flow(p: Pair): void {
    if (this.state === 'frozen') {
      p.client.pause();
      p.upstream.pause();
    } else {
      p.client.resume();
      p.upstream.resume();
    }
  }

  private drop(p: Pair): void {
    if (!this.pairs.delete(p)) return;
    p.client.destroy();
    p.upstream.destroy();
  }
}
