// The bare-loop limit: the cheapest discrete-event loop that does the cluster keep-alive hour's work
// shape, to measure the cluster against in the same process. Events are pooled records in typed arrays
// (time, insertion sequence, integer tag, one integer argument), held in a binary heap ordered by
// (time, sequence) like the simulator's, and dispatched by a switch on the tag; each does 1–2 Map gets
// on maps keyed by number-valued lease IDs and schedules its successor. No closures, no allocation per
// event. The shape: clients renew each lease every TTL/3 over a stream to a member; a follower forwards
// the renewal to the leader and relays the answer back; every member ticks every 100 ms.
import { cpuSeconds } from './report.js';

export interface LoopShape {
  readonly leases: number;
  readonly clients: number;
  readonly members: number;
  readonly renewEveryUs: number;
  readonly tickEveryUs: number;
  readonly hopUs: number;
  /** Stop after this many events. */
  readonly events: number;
}

export interface LoopResult {
  readonly events: number;
  readonly cpuS: number;
  readonly wallS: number;
  readonly eventsPerCpuS: number;
  readonly eventsPerWallS: number;
}

/** 3 members, 10,000 leases of TTL 10 s over 100 clients; `events` set by the caller. */
export const KEEPALIVE_SHAPE: Omit<LoopShape, 'events'> = {
  leases: 10_000,
  clients: 100,
  members: 3,
  renewEveryUs: 3_333_333,
  tickEveryUs: 100_000,
  hopUs: 1_000,
};

const CLIENT_SEND = 0;
const MEMBER_RECV = 1;
const LEADER_RENEW = 2;
const FOLLOWER_RELAY = 3;
const CLIENT_RECV = 4;
const TICK = 5;

/** Runs the loop for `shape.events` events and reports its rate in CPU and wall time. */
export function bareLoop(shape: LoopShape): LoopResult {
  const cap = shape.leases + shape.members + 16;
  const time = new Float64Array(cap);
  const seq = new Float64Array(cap);
  const tag = new Uint8Array(cap);
  const arg = new Int32Array(cap);
  const heap = new Int32Array(cap);
  const free = new Int32Array(cap);
  let nFree = 0;
  for (let i = cap - 1; i >= 0; i--) free[nFree++] = i;
  let size = 0;
  let nextSeq = 0;

  const before = (a: number, b: number): boolean => time[a]! < time[b]! || (time[a] === time[b] && seq[a]! < seq[b]!);
  const schedule = (at: number, t: number, a: number): void => {
    const e = free[--nFree]!;
    time[e] = at;
    seq[e] = nextSeq++;
    tag[e] = t;
    arg[e] = a;
    let i = size++;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(e, heap[p]!)) break;
      heap[i] = heap[p]!;
      i = p;
    }
    heap[i] = e;
  };
  const popRoot = (): number => {
    const top = heap[0]!;
    const last = heap[--size]!;
    let i = 0;
    for (;;) {
      let c = 2 * i + 1;
      if (c >= size) break;
      if (c + 1 < size && before(heap[c + 1]!, heap[c]!)) c++;
      if (!before(heap[c]!, last)) break;
      heap[i] = heap[c]!;
      i = c;
    }
    heap[i] = last;
    free[nFree++] = top;
    return top;
  };

  // Lease IDs laid out as the model allocates them (member prefix, then a counter): numbers, not Smis.
  const ids = new Float64Array(shape.leases);
  const expiry = new Map<number, { at: number }>();
  const streams = new Map<number, { sent: number }>();
  const waiting = new Map<number, { client: number }>();
  const members = new Map<number, { ticks: number }>();
  for (let i = 0; i < shape.leases; i++) {
    ids[i] = 2 ** 48 + 2 * i + 1;
    expiry.set(ids[i]!, { at: 0 });
    waiting.set(ids[i]!, { client: i % shape.clients });
  }
  for (let c = 0; c < shape.clients; c++) streams.set(c, { sent: 0 });
  for (let m = 0; m < shape.members; m++) members.set(m, { ticks: 0 });
  for (let i = 0; i < shape.leases; i++) schedule(Math.floor((i * shape.renewEveryUs) / shape.leases), CLIENT_SEND, i);
  for (let m = 0; m < shape.members; m++) schedule(m, TICK, m);

  const c0 = process.cpuUsage();
  const t0 = performance.now();
  let done = 0;
  while (done < shape.events) {
    const e = popRoot();
    const now = time[e]!;
    const a = arg[e]!;
    done++;
    switch (tag[e]) {
      case CLIENT_SEND:
        streams.get(a % shape.clients)!.sent++;
        schedule(now + shape.hopUs, MEMBER_RECV, a);
        break;
      case MEMBER_RECV:
        // Clients spread over the members; member 0 leads.
        if (a % shape.members === 0) {
          expiry.get(ids[a]!)!.at = now + 10_000_000;
          schedule(now + shape.hopUs, CLIENT_RECV, a);
        } else {
          waiting.get(ids[a]!)!.client = a % shape.clients;
          schedule(now + shape.hopUs, LEADER_RENEW, a);
        }
        break;
      case LEADER_RENEW:
        expiry.get(ids[a]!)!.at = now + 10_000_000;
        schedule(now + shape.hopUs, FOLLOWER_RELAY, a);
        break;
      case FOLLOWER_RELAY:
        streams.get(waiting.get(ids[a]!)!.client)!.sent--;
        schedule(now + shape.hopUs, CLIENT_RECV, a);
        break;
      case CLIENT_RECV:
        if (expiry.get(ids[a]!)!.at < now) throw new Error('bare loop: a lease expired');
        schedule(now + shape.renewEveryUs, CLIENT_SEND, a);
        break;
      default:
        members.get(a)!.ticks++;
        schedule(now + shape.tickEveryUs, TICK, a);
    }
  }
  const cpuS = cpuSeconds(c0);
  const wallS = (performance.now() - t0) / 1000;
  return { events: done, cpuS, wallS, eventsPerCpuS: done / cpuS, eventsPerWallS: done / wallS };
}
