// The fenced resource and belief board over HTTP: the fence's answers, the trace events the holder
// monitors read, and refusals of bad requests.
import { afterEach, describe, expect, it } from 'vitest';
import { type Fence, ResourceServer } from '../../src/apps/resource-server.js';
import { formatEvent, Trace } from '../../src/trace/trace.js';

let server: ResourceServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(fence?: Fence) {
  const trace = new Trace();
  const clock = { t: 0, now: () => clock.t };
  server = new ResourceServer({ trace, clock, ...(fence !== undefined ? { fence } : {}) });
  const base = await server.start();
  const post = async (path: string, body: unknown) => {
    const r = await fetch(`${base}${path}`, {
      method: 'POST',
      body: typeof body === 'string' ? body : JSON.stringify(body),
    });
    return { status: r.status, body: (await r.json()) as Record<string, unknown> };
  };
  return { trace, clock, base, post, lines: () => trace.events.map(formatEvent) };
}

describe('POST /resources/NAME', () => {
  it('accepts tokens at or above the highest (fence: lower), rejects lower ones, at arrival', async () => {
    const s = await serve();
    s.clock.t = 1_000_000;
    expect(await s.post('/resources/payments', { holder: 'a', token: 5, value: 'x' })).toEqual({
      status: 200,
      body: { accepted: true, highest: 5 },
    });
    s.clock.t = 2_000_000;
    expect((await s.post('/resources/payments', { holder: 'a', token: 5 })).status).toBe(200);
    expect((await s.post('/resources/payments', { holder: 'b', token: 9 })).status).toBe(200);
    s.clock.t = 3_000_000;
    expect(await s.post('/resources/payments', { holder: 'a', token: 5 })).toEqual({
      status: 409,
      body: { accepted: false, highest: 9 },
    });
    expect(s.lines()).toEqual([
      '1.000000 a client-fenced-write - resource=payments token=5 accepted=true',
      '2.000000 a client-fenced-write - resource=payments token=5 accepted=true',
      '2.000000 b client-fenced-write - resource=payments token=9 accepted=true',
      '3.000000 a client-fenced-write - resource=payments token=5 accepted=false',
    ]);
    const r = await fetch(`${s.base}/resources/payments`);
    expect(await r.json()).toEqual({ highest: 9, accepted: 3, rejected: 1 });
  });

  it("fence: strict is the runbook's SQL (fencing_revision < $1): a holder's second write is rejected", async () => {
    const s = await serve('strict');
    expect((await s.post('/resources/payments', { holder: 'a', token: 5 })).status).toBe(200);
    expect((await s.post('/resources/payments', { holder: 'a', token: 5 })).status).toBe(409);
    expect((await s.post('/resources/payments', { holder: 'a', token: 6 })).status).toBe(200);
  });

  it('keeps resources apart by name', async () => {
    const s = await serve();
    expect((await s.post('/resources/one', { holder: 'a', token: 9 })).status).toBe(200);
    expect((await s.post('/resources/two', { holder: 'a', token: 1 })).status).toBe(200);
  });

  it('refuses bad requests with a reason and records nothing', async () => {
    const s = await serve();
    expect(await s.post('/resources/p', 'not json')).toEqual({ status: 400, body: { error: 'the body is not JSON' } });
    expect((await s.post('/resources/p', { holder: 'a', token: -1 })).body.error).toMatch(/"token" must be/);
    expect((await s.post('/resources/p', { holder: 'a b', token: 1 })).body.error).toMatch(/"holder" must be/);
    expect((await s.post('/resources/p', { holder: 'a', token: 1, value: 3 })).body.error).toMatch(/"value"/);
    expect((await s.post('/resources/bad%20name', { holder: 'a', token: 1 })).status).toBe(404);
    expect((await s.post('/elsewhere/p', { holder: 'a', token: 1 })).status).toBe(404);
    expect((await s.post('/resources/p', 'x'.repeat(70_000))).status).toBe(413);
    const del = await fetch(`${s.base}/resources/p`, { method: 'DELETE' });
    expect(del.status).toBe(405);
    expect(s.lines()).toEqual([]);
  });

  it('listens on loopback only by default', async () => {
    const s = await serve();
    expect(s.base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });
});

describe('POST /beliefs/NAME', () => {
  it('becomes holder-acquired, -deadline and -stop under the holder name, as built-in holders emit', async () => {
    const s = await serve();
    s.clock.t = 1_000_000;
    const held = { holding: true, lease: '7587000000000000001', token: 5, key: '/locks/x' };
    expect((await s.post('/beliefs/a', { ...held, validForMs: 7000 })).status).toBe(200);
    s.clock.t = 4_000_000;
    // The same lease and token again: a renewal's new deadline, not a second acquisition.
    await s.post('/beliefs/a', { ...held, validForMs: 7000 });
    s.clock.t = 15_000_000;
    await s.post('/beliefs/a', { holding: false, reason: 'own deadline passed', stoppedAgoMs: 5000 });
    await s.post('/beliefs/a', { holding: false });
    expect(s.lines()).toEqual([
      '1.000000 a holder-acquired 694a704d66e38001 key=/locks/x token=5',
      '1.000000 a holder-deadline 694a704d66e38001 untilUs=8000000',
      '4.000000 a holder-deadline 694a704d66e38001 untilUs=11000000',
      '15.000000 a holder-stop 694a704d66e38001 reason="own deadline passed" lateUs=5000000',
    ]);
    expect(server!.beliefs.holding('a')).toBe(false);
  });

  it('a new lease or token while holding ends the old belief first', async () => {
    const s = await serve();
    await s.post('/beliefs/a', { holding: true, lease: '0x10', token: 5 });
    await s.post('/beliefs/a', { holding: true, lease: '0x11', token: 8 });
    expect(s.lines()).toEqual([
      '0.000000 a holder-acquired 10 key="" token=5',
      '0.000000 a holder-stop 10 reason=replaced',
      '0.000000 a holder-acquired 11 key="" token=8',
    ]);
  });

  it('refuses a malformed belief with the field it objects to', async () => {
    const s = await serve();
    expect((await s.post('/beliefs/a', {})).body.error).toBe('"holding" must be true or false');
    expect((await s.post('/beliefs/a', { holding: true, lease: 12 })).body.error).toMatch(/"lease"/);
    expect((await s.post('/beliefs/a', { holding: true, lease: '99999999999999999999999' })).body.error).toMatch(
      /"lease"/,
    );
    expect((await s.post('/beliefs/a', { holding: true, validForMs: 1.5 })).body.error).toMatch(/"validForMs"/);
    expect((await s.post('/beliefs/a', [true])).status).toBe(400);
    expect(s.lines()).toEqual([]);
  });
});
