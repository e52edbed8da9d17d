import type { Scenario } from '../../scenario/types.js';
import { bool, list, str, type Command } from '../command.js';
import { UsageError } from '../errors.js';
import { checkOutputFile } from '../output-path.js';
import { resolve } from 'node:path';
import { defaultCluster } from '../../serve/default-cluster.js';
import type { AppCommand } from '../../serve/served-apps.js';
import { APP_EXIT_CODES_HELP } from '../app-verdict.js';
import { loadAll, runOptions } from './scenario-flags.js';

/** A program's name: it becomes a trace member, an URL path segment and HOLDER_NAME. */
const APP_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** `serve FILE -- CMD ARGS...` (named `app`, run directly) and each `--app NAME=CMD` (run by /bin/sh -c). */
function appsOf(passthrough: readonly string[] | undefined, specs: readonly string[]): AppCommand[] {
  const apps: AppCommand[] = [];
  if (passthrough !== undefined) {
    const [command, ...args] = passthrough;
    if (command === undefined || command === '') throw new UsageError('serve: name a command after --');
    apps.push({ name: 'app', command, args });
  }
  for (const spec of specs) {
    const eq = spec.indexOf('=');
    const name = eq < 0 ? '' : spec.slice(0, eq);
    const cmd = eq < 0 ? '' : spec.slice(eq + 1);
    if (!APP_NAME.test(name) || cmd.trim() === '')
      throw new UsageError(
        `--app takes NAME=CMD (NAME: letters, digits, ".", "_" and "-", at most 64), got ${JSON.stringify(spec)}`,
      );
    if (apps.some((a) => a.name === name))
      throw new UsageError(`--app ${name}: that name is taken${name === 'app' ? ' (by the command after --)' : ''}`);
    apps.push({ name, command: '/bin/sh', args: ['-c', cmd] });
  }
  return apps;
}

export const serveCommand: Command = {
  name: 'serve',
  summary: "the simulated cluster behind etcd's v3 gRPC API, paced to the wall clock, for real clients",
  args: '[FILE]',
  afterDashes: 'CMD ARGS...',
  positionals: { min: 0, max: 1 },
  flags: {
    listen: { type: 'string', value: 'ADDR', help: 'listen on this address (default 127.0.0.1, loopback only)' },
    port: {
      type: 'string',
      value: 'BASE',
      help: 'member i listens on BASE+i (default: free ports chosen at start)',
    },
    record: {
      type: 'string',
      value: 'LOG',
      help: 'write every client input as JSON lines (replay: run FILE --input LOG)',
    },
    seed: { type: 'string', value: 'N', help: "override the file's seed (a non-negative integer)" },
    profile: { type: 'string', value: 'v3.4|v3.5', help: "override the file's etcd version profile" },
    app: {
      type: 'string',
      multiple: true,
      value: 'NAME=CMD',
      help: 'also run program NAME under test: CMD is run by /bin/sh -c (repeatable)',
    },
    fence: {
      type: 'string',
      value: 'lower|strict',
      help: "programs' fence: lower (default) or strict (the runbook's SQL, fencing_revision < $1)",
    },
  },
  details: [
    "Runs FILE's cluster (or 3 members, profile v3.4) with its virtual clock paced to the wall clock, and serves",
    'each member as an etcd v3 gRPC endpoint. The first lines printed are the endpoints and',
    '`export ETCDCTL_ENDPOINTS=...` (comments and exports, so a shell can eval them), then a line starting',
    '"# ready". The scenario\'s steps happen at their virtual times; a paused member stops reading its sockets,',
    "a crashed member's port refuses connections until it restarts. With FILE, serve ends when the scenario",
    "does, prints run's verdicts and exits with run's codes; without FILE it runs until SIGINT or SIGTERM and",
    'exits 0. A port that cannot be had is exit 2. docs/serve.md lists the methods served.',
    '',
    'Programs under test (docs/apps.md): `serve FILE -- CMD ARGS...` runs CMD with ARGS directly (no shell) as',
    'program `app`; each `--app NAME=CMD` runs CMD with /bin/sh -c as program NAME. Each starts once the',
    'cluster is up, in a process group of its own, with ETCDCTL_ENDPOINTS, ETCD_ENDPOINTS, ETCD_ENDPOINT_N1...,',
    'RESOURCE_URL (one fenced resource shared by every program), BELIEFS_URL and HOLDER_NAME in its',
    'environment; its endpoints are relays of its own, so the steps pause/resume/restart/kill { app: NAME },',
    'cut { app: NAME, from: [n1] } and heal { app: NAME } act on it alone. Its lines are printed as',
    '"SECONDS NAME | line" (stderr: "!") and traced. serve ends at the scenario\'s end or once every program',
    'has exited (the rest of the scenario then runs at once), kills what still runs, and judges the',
    "programs' writes and beliefs with the holder monitors (no-stale-write-accepted, no-overlap,",
    "holder-stops-before-revoke) beside the expects. --record also records the programs' events, so",
    'run FILE --input LOG replays the served run without them. Exit codes with programs:',
    APP_EXIT_CODES_HELP,
  ].join('\n'),
  run: async (inv) => {
    const listen = str(inv, 'listen') ?? '127.0.0.1';
    if (!/^[0-9A-Za-z.:-]+$/.test(listen))
      throw new UsageError(`--listen takes an address, got ${JSON.stringify(listen)}`);
    const portText = str(inv, 'port');
    if (portText !== undefined && (!/^\d{1,5}$/.test(portText) || Number(portText) + 7 > 65535))
      throw new UsageError(`--port takes a base port number (0..65528), got ${JSON.stringify(portText)}`);
    const opts = runOptions(inv);
    const file = inv.positionals[0];
    const apps = appsOf(inv.passthrough, list(inv, 'app'));
    if (apps.length > 0 && file === undefined)
      throw new UsageError('serve: programs under test need a scenario FILE (serve FILE -- CMD)');
    const fence = str(inv, 'fence');
    if (fence !== undefined && fence !== 'lower' && fence !== 'strict')
      throw new UsageError(`--fence takes lower or strict, got ${JSON.stringify(fence)}`);
    if (fence !== undefined && apps.length === 0)
      throw new UsageError('--fence is the rule for programs under test; give one (-- CMD or --app NAME=CMD)');
    const scenario: Scenario = file !== undefined ? loadAll([file], { apps: true })[0]! : defaultCluster();
    const record = str(inv, 'record');
    if (record !== undefined) {
      checkOutputFile('--record', record);
      if (file !== undefined && resolve(record) === resolve(file))
        throw new UsageError(`--record ${record}: that is the scenario FILE; name another file`);
    }
    const { serve } = await import('../../serve/serve.js');
    return serve(
      scenario,
      {
        host: listen,
        basePort: portText === undefined ? undefined : Number(portText),
        record,
        fromFile: file !== undefined,
        run: opts,
        debug: bool(inv, 'debug'),
        apps,
        ...(fence !== undefined ? { fence } : {}),
      },
      inv.io,
    );
  },
};
