// An AppSession end to end without a cluster: a program started with the endpoints and the resource's
// URLs writes and reports a belief over HTTP, both land in the trace, and the run's end keeps its exit.
import { afterEach, describe, expect, it } from 'vitest';
import { type AppLine, AppStartError } from '../../src/apps/app-runner.js';
import { AppSession } from '../../src/apps/app-session.js';
import { appVerdict } from '../../src/cli/app-verdict.js';
import { formatEvent, Trace } from '../../src/trace/trace.js';

let session: AppSession | undefined;
afterEach(async () => {
  await session?.close();
  session = undefined;
});

const PROGRAM = `
const post = (url, body) => fetch(url, { method: 'POST', body: JSON.stringify(body) }).then((r) => r.status);
(async () => {
  const me = process.env.HOLDER_NAME;
  console.log(process.env.ETCDCTL_ENDPOINTS);
  console.log(await post(process.env.BELIEFS_URL + '/' + me, { holding: true, lease: '0x2a', token: 3, key: '/k' }));
  console.log(await post(process.env.RESOURCE_URL, { holder: me, token: 3 }));
  console.log(await post(process.env.BELIEFS_URL + '/' + me, { holding: false, reason: 'done' }));
  process.exit(Number(process.argv[1] ?? 0));
})();
`;

function newSession() {
  const trace = new Trace();
  const lines: AppLine[] = [];
  session = new AppSession({
    trace,
    clock: { now: () => 0 },
    members: [
      { name: 'n1', url: 'http://127.0.0.1:1' },
      { name: 'n2', url: 'http://127.0.0.1:2' },
    ],
    onLine: (l) => lines.push(l),
  });
  return { trace, lines, s: session };
}

describe('AppSession', () => {
  it('runs a program that writes to its resource and reports its belief; its exit decides the verdict', async () => {
    const { trace, lines, s } = newSession();
    await s.start();
    const app = await s.launch({ name: 'h1', command: process.execPath, args: ['-e', PROGRAM, '4'], members: ['n2'] });
    await app.exited;
    expect(s.allExited).toBe(true);
    expect(lines.map((l) => l.text)).toEqual(['http://127.0.0.1:2', '200', '200', '200']);
    expect(trace.events.map(formatEvent)).toEqual([
      '0.000000 h1 holder-acquired 2a key=/k token=3',
      '0.000000 h1 client-fenced-write - resource=h1 token=3 accepted=true',
      '0.000000 h1 holder-stop 2a reason=done',
    ]);
    const exits = await s.finish();
    expect(exits).toMatchObject([{ app: 'h1', code: 4, byHarness: false }]);
    expect(appVerdict({ expectsPassed: true, violations: 0, exits }).code).toBe(5);
  });

  it("has not all exited while a program is between a restart's kill and its new start", async () => {
    const { s } = newSession();
    await s.start();
    const app = await s.launch({ name: 'h1', command: '/bin/sh', args: ['-c', 'sleep 60'] });
    const old = app.exited;
    const restarted = app.restart();
    await old; // the old process has gone and its exit is in; the new one is not running yet
    // serve ends the run once every program has exited: here it must wait for the new start.
    expect([app.running, s.allExited]).toEqual([false, false]);
    await restarted;
    expect(s.allExited).toBe(false);
    await s.finish();
    expect(s.allExited).toBe(true);
  });

  it('kills what still runs at the end (an exit the verdict does not blame) and refuses a duplicate name', async () => {
    const { s } = newSession();
    await s.start();
    await s.launch({ name: 'h1', command: '/bin/sh', args: ['-c', 'sleep 60'] });
    await expect(s.launch({ name: 'h1', command: '/bin/true' })).rejects.toThrow(/already running/);
    await expect(s.launch({ name: 'h2', command: '/nonexistent' })).rejects.toThrow(AppStartError);
    const exits = await s.finish();
    expect(exits).toMatchObject([{ app: 'h1', signal: 'SIGKILL', byHarness: true }]);
    expect(appVerdict({ expectsPassed: true, violations: 0, exits }).code).toBe(0);
  });
});
