/**
 * Everything a run with programs under test needs beside the cluster, in one place: the resource
 * server, one AppRunner per program started with the cluster's endpoints, the client-side fault steps,
 * and the end of the run (programs still running are killed, every exit kept for the verdict). Used by
 * the real-etcd tests on the wall clock; meant for `serve FILE -- CMD` on serve's paced virtual clock.
 */
import type { Micros } from '../clock/time.js';
import type { Trace } from '../trace/trace.js';
import { appEnv } from './app-env.js';
import { type AppExit, type AppLine, AppRunner } from './app-runner.js';
import { type AppStep, type AppTimer, performAppStep } from './app-steps.js';
import { type Fence, ResourceServer } from './resource-server.js';

export interface AppSessionOptions {
  readonly trace: Trace;
  readonly clock: { now(): Micros };
  /** The cluster's members and their client URLs, in the order clients should get them. */
  readonly members: readonly { readonly name: string; readonly url: string }[];
  readonly fence?: Fence;
  readonly onLine?: (line: AppLine) => void;
  readonly onExit?: (exit: AppExit) => void;
}

export interface AppLaunch {
  readonly name: string;
  readonly command: string;
  readonly args?: readonly string[];
  /** The fenced resource it writes to (RESOURCE_URL); default: a resource named after the app. */
  readonly resource?: string;
  /** Only these members in its endpoints (default: all). */
  readonly members?: readonly string[];
  /** Its own URLs for the members, over the session's (serve gives each program relays of its own). */
  readonly endpoints?: readonly { readonly name: string; readonly url: string }[];
  /** Extra environment, over the harness's. */
  readonly env?: Readonly<Record<string, string>>;
  readonly cwd?: string;
}

export class AppSession {
  readonly server: ResourceServer;
  readonly apps = new Map<string, AppRunner>();

  constructor(private readonly opts: AppSessionOptions) {
    this.server = new ResourceServer({
      trace: opts.trace,
      clock: opts.clock,
      ...(opts.fence !== undefined ? { fence: opts.fence } : {}),
    });
  }

  /** Starts the resource server; resolves with its base URL. */
  start(): Promise<string> {
    return this.server.start();
  }

  /** Starts one program (AppStartError if it cannot be executed). */
  async launch(l: AppLaunch): Promise<AppRunner> {
    if (this.apps.has(l.name)) throw new Error(`an app named ${l.name} is already running`);
    const all = l.endpoints ?? this.opts.members;
    const members = l.members === undefined ? all : all.filter((m) => l.members!.includes(m.name));
    const env = {
      ...appEnv(l.name, {
        members,
        resourceUrl: this.server.resourceUrl(l.resource ?? l.name),
        beliefsUrl: this.server.beliefsUrl,
      }),
      ...l.env,
    };
    const app = new AppRunner(
      { name: l.name, command: l.command, ...(l.args ? { args: l.args } : {}), env, ...(l.cwd ? { cwd: l.cwd } : {}) },
      {
        clock: this.opts.clock,
        ...(this.opts.onLine ? { onLine: this.opts.onLine } : {}),
        ...(this.opts.onExit ? { onExit: this.opts.onExit } : {}),
      },
    );
    await app.start();
    this.apps.set(l.name, app);
    return app;
  }

  /** A client-side fault step (pause, kill, restart); its later half runs on `timer`. */
  step(s: AppStep, timer: AppTimer): Promise<string | undefined> {
    return performAppStep(this.apps, s, timer);
  }

  /** Whether every program has ended (on its own or by a step) and none is between a restart's kill and start. */
  get allExited(): boolean {
    return [...this.apps.values()].every((a) => !a.running && !a.restarting);
  }

  /** The end of the run: kills what still runs; each program's last exit, for appVerdict. */
  async finish(): Promise<AppExit[]> {
    for (const a of this.apps.values()) await a.kill();
    return [...this.apps.values()].flatMap((a) => a.exits.slice(-1));
  }

  async close(): Promise<void> {
    await this.finish();
    await this.server.close();
  }
}
