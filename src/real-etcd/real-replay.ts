/**
 * Replays a scenario on a live etcd cluster in wall-clock time: each step at its `at` (µs after time 0,
 * the instant the cluster was ready with n1 leading), through a real client, with the same ordering
 * rules as the simulation's runner:
 *  - an instant first performs what the simulation does at once (signals, starting or stopping a
 *    client's keep-alive process), then sends its `expect` reads, then its requests, each group in file
 *    order: a request sent at t takes effect in the simulation only after the network delay, so an
 *    `expect` at t must not see it here either;
 *  - requests to one member go out in order (one FIFO per member, like the simulation's in-order
 *    links) but nobody waits for their answers, so a stuck member delays only what was sent to it;
 *    the requests of one instant to one member start together (the simulation sends them all at that
 *    instant), after the earlier instants' requests to that member;
 *  - a leadership transfer runs beside the replay (it takes effect over time in the simulation too), so
 *    a request can race it;
 *  - a step naming a lease waits until its grant is answered.
 * Faults are real signals: a member pause is SIGSTOP of etcd, a client pause is SIGSTOP of that client's
 * `etcdctl lease keep-alive` processes, crash is SIGKILL, restart reruns etcd on the same data dir.
 */
import { formatTimeMs, type Micros } from '../clock/time.js';
import { grantManyOffsetUs } from '../scenario/kinds/lease-extension-steps.js';
import { describeAssertion } from '../scenario/replay/describe.js';
import type { ExpectStep, Scenario, Step } from '../scenario/types.js';
import type { EtcdBinaries } from './binaries.js';
import type { ChildRegistry } from './children.js';
import type { EtcdCluster } from './etcd-cluster.js';
import type { EtcdMember } from './etcd-member.js';
import { COMMAND_TIMEOUT_MS } from './etcd-rpc.js';
import { KeyWatch } from './key-watch.js';
import { LeaseIds } from './lease-ids.js';
import { renewSubject, reportedGrant, type Observed, type ObservedKind } from './observed.js';
import { AnswerBook, type AnswerValues } from '../scenario/replay/answers.js';
import { asAnswer } from './real-answers.js';
import { ASSERT_TIMEOUT_MS, evaluateReal } from './real-assertions.js';
import { ReplayClients } from './replay-clients.js';
import type { RealStepReplay } from './real-step-replay.js';
import { realStep } from './real-steps.js';
import { nowUs, sleepMs, sleepUntil, within } from './wall-clock.js';
import { groupByTime } from '../scenario/group-by-time.js';
import { grantManyLabel } from '../scenario/lease-labels.js';

/** A step starting later than this after its `at` is noted in the output (the host was busy). */
const LATE_NOTE_US = 50_000;
/** Steps whose effect reaches etcd only through a request (so not at their own instant). */
const sendsRequest = (s: Exclude<Step, ExpectStep>): boolean => {
  const entry = realStep(s.kind);
  return !('refused' in entry) && entry.sendsRequest;
};
/** How long an instant's requests wait for its `expect`s to be answered first (a stuck member must not
 * hold the schedule for the reads' full timeout). */
const EXPECT_HEAD_START_MS = 250;
/** How long an instant waits for a local step (spawn or kill a keep-alive process) before moving on. */
const LOCAL_STEP_WAIT_MS = 500;

export interface RealAssertionResult {
  readonly step: ExpectStep;
  readonly atUs: Micros;
  readonly pass: boolean;
  readonly text: string;
  readonly got: string;
  /** How long after its `at` the read was sent. */
  readonly lateUs: Micros;
}

export interface RealRun {
  readonly assertions: readonly RealAssertionResult[];
  readonly observed: readonly Observed[];
  /** Failed requests, late steps, skipped steps: anything the reader should know. */
  readonly notes: readonly string[];
}

const why = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export async function replayOnEtcd(
  scenario: Scenario,
  cluster: EtcdCluster,
  registry: ChildRegistry,
  bins: EtcdBinaries,
): Promise<RealRun> {
  return new RealReplay(scenario, cluster, registry, bins).run();
}

class RealReplay implements RealStepReplay {
  private t0 = 0;
  private ended = false;
  readonly ids = new LeaseIds();
  private readonly observed: Observed[] = [];
  private readonly notes: string[] = [];
  private readonly assertions: RealAssertionResult[] = [];
  readonly clients: ReplayClients;
  private readonly fifos = new Map<string, Promise<void>>();
  /** Per FIFO, the instant of its last batch and what that batch waits for: same-instant work joins it. */
  private readonly batches = new Map<string, { readonly at: Micros; readonly after: Promise<void> }>();
  private readonly background: Promise<unknown>[] = [];
  private leaderNow: EtcdMember | undefined;
  private watch: KeyWatch | undefined;
  private readonly reportGrant: (label: string) => 'single' | 'bulk' | undefined;
  private readonly answers = new AnswerBook();
  /** When each label's grant is sent (its first), so a check can tell a grant in flight from one to come. */
  private readonly grantAt = new Map<string, Micros>();

  constructor(
    private readonly scenario: Scenario,
    readonly cluster: EtcdCluster,
    registry: ChildRegistry,
    bins: EtcdBinaries,
  ) {
    this.reportGrant = reportedGrant(scenario);
    const sent = (label: string, at: Micros): void => {
      this.grantAt.set(label, Math.min(at, this.grantAt.get(label) ?? at));
    };
    for (const s of scenario.steps) {
      if (s.kind === 'grant') sent(s.lease, s.atUs);
      if (s.kind === 'grant-many')
        for (let i = 1; i <= s.count; i++) sent(grantManyLabel(s.prefix, i), s.atUs + grantManyOffsetUs(s, i));
    }
    this.clients = new ReplayClients(cluster, registry, bins, (client, label, ttl) =>
      this.observe('renew', renewSubject(label, client), ttl),
    );
  }

  private t(): Micros {
    return nowUs() - this.t0;
  }

  async run(): Promise<RealRun> {
    const first = this.cluster.members[0]!;
    const { revision } = await first.rpc.range('lessor-sim/start', false);
    const watch = new KeyWatch(this.cluster, revision + 1, () => this.t());
    this.watch = watch;
    await watch.start(5_000);
    this.t0 = nowUs();
    for (const [at, steps] of groupByTime(this.scenario.steps)) {
      await sleepUntil(this.t0 + at);
      const late = this.t() - at;
      if (late > LATE_NOTE_US) this.note(at, `steps at this instant started ${formatTimeMs(late)} late`);
      if (steps.some((s) => s.kind !== 'expect' && !('via' in s && s.via !== undefined)))
        this.leaderNow = await this.cluster.leader();
      // 1. What acts at once in the simulation (signals, client processes), in file order.
      for (const s of steps)
        if (s.kind !== 'expect' && !sendsRequest(s)) await Promise.race([this.perform(s), sleepMs(LOCAL_STEP_WAIT_MS)]);
      // 2. The checks, sent before this instant's requests: in the simulation those take effect only
      //    after the network delay, so an `expect` never sees them.
      const expects = steps.filter((s): s is ExpectStep => s.kind === 'expect');
      const checks = Promise.all(expects.map((s) => this.expect(s, at)));
      if (expects.length > 0) await Promise.race([checks, sleepMs(EXPECT_HEAD_START_MS)]);
      // 3. The requests, in file order.
      for (const s of steps) if (s.kind !== 'expect' && sendsRequest(s)) await this.perform(s);
      this.assertions.push(...(await checks));
    }
    await sleepUntil(this.t0 + this.scenario.durationUs);
    // The simulation stops at `duration`; so does observation here.
    this.ended = true;
    for (const d of watch.deletions)
      if (d.tUs <= this.scenario.durationUs)
        this.observed.push({ kind: 'delete', subject: d.key, tUs: d.tUs, value: d.revision });
    watch.close();
    this.ids.abandon('the run ended before this lease was granted');
    await this.clients.stopAll();
    await within(
      Promise.allSettled([...this.fifos.values(), ...this.background]),
      COMMAND_TIMEOUT_MS + 2_000,
      'requests still pending',
    ).catch((e) => this.note(this.scenario.durationUs, why(e)));
    this.observed.sort((a, b) => a.tUs - b.tUs);
    return { assertions: this.assertions, observed: this.observed, notes: this.notes };
  }

  note(atUs: Micros, text: string): void {
    this.notes.push(`at ${formatTimeMs(atUs)}: ${text}`);
  }

  observe(kind: ObservedKind, subject: string, value?: number): void {
    if (!this.ended) this.observed.push({ kind, subject, tUs: this.t(), ...(value !== undefined ? { value } : {}) });
  }

  observeBulkGrant(label: string, ttl: number): void {
    if (this.reportGrant(label) !== undefined && !this.ended)
      this.observed.push({ kind: 'grant', subject: label, tUs: this.t(), value: ttl, bulk: true });
  }

  wallUs(atUs: Micros): Micros {
    return this.t0 + atUs;
  }

  inBackground(p: Promise<unknown>): void {
    this.background.push(p);
  }

  private async expect(s: ExpectStep, at: Micros): Promise<RealAssertionResult> {
    const lateUs = this.t() - at;
    const v = await evaluateReal(s.assertion, {
      cluster: this.cluster,
      leaseId: (label) => this.ids.now(label),
      grantedLeaseId: (label) => this.grantedLeaseId(label, at),
      keepAliveAlive: (client, label) => this.clients.alive(client, label),
      namedAnswer: (name) => this.answers.get(name),
    });
    return { step: s, atUs: at, pass: v.pass, text: describeAssertion(s.assertion), got: v.got, lateUs };
  }

  /**
   * A label's ID for a check at `at`: a grant sent at an earlier instant is waited for (up to the read's
   * timeout), since the simulation's is answered by then; a grant of this instant or later is not (the
   * simulation's check does not see it either).
   */
  private async grantedLeaseId(label: string, at: Micros): Promise<bigint | string> {
    const sentAt = this.grantAt.get(label);
    if (sentAt === undefined || sentAt >= at) return this.ids.now(label);
    return within(this.ids.wait(label), ASSERT_TIMEOUT_MS, 'unanswered').catch(() => this.ids.now(label));
  }

  /** Runs `fn` after everything queued before it on the same FIFO; failures become notes. */
  enqueue(fifo: string, at: Micros, what: string, fn: () => Promise<void>): Promise<void> {
    return this.queue(fifo, at, what, fn, false);
  }

  /**
   * `together`: work queued on the FIFO at the same instant starts together (after the earlier
   * instants' work) instead of one after another.
   */
  private queue(fifo: string, at: Micros, what: string, fn: () => Promise<void>, together: boolean): Promise<void> {
    const run = async (): Promise<void> => {
      try {
        await fn();
      } catch (e) {
        this.note(at, `${what} failed: ${why(e)}`);
      }
    };
    const tail = this.fifos.get(fifo) ?? Promise.resolve();
    const batch = this.batches.get(fifo);
    const join = together && batch !== undefined && batch.at === at;
    const after = join ? batch.after : tail;
    if (together && !join) this.batches.set(fifo, { at, after });
    if (!together) this.batches.delete(fifo);
    const p = after.then(run);
    this.fifos.set(
      fifo,
      Promise.all([tail, p]).then(() => {}),
    );
    return p;
  }

  /** Where etcdctl would send a request: `via`, else the leader at this instant, else n1. */
  target(via: string | undefined): EtcdMember {
    return via !== undefined ? this.cluster.member(via) : (this.leaderNow ?? this.cluster.members[0]!);
  }

  request(s: Step & { via?: string }, what: string, fn: (m: EtcdMember) => Promise<void>): void {
    const m = this.target(s.via);
    void this.queue(`member ${m.name}`, s.atUs, `${what} (line ${s.pos.line}, via ${m.name})`, () => fn(m), true);
  }

  /** The lease behind a label, waiting for its grant; throws (a note) if it was never granted. */
  async lease(label: string): Promise<bigint> {
    const id = await this.ids.wait(label);
    if (typeof id === 'string') throw new Error(id);
    return id;
  }

  private async perform(s: Exclude<Step, ExpectStep>): Promise<void> {
    const entry = realStep(s.kind);
    // Refused before the run (refusals.ts); noted here too, never silently dropped.
    if ('refused' in entry || entry.refuse?.(s) !== undefined)
      return this.note(s.atUs, `${s.kind} (line ${s.pos.line}) is not supported on real etcd; skipped`);
    return entry.perform(s, this);
  }

  named<T>(
    as: string | undefined,
    op: string,
    call: () => Promise<T>,
    values: (v: T) => { error: string } | AnswerValues,
  ): Promise<T> {
    return asAnswer(this.answers, () => this.t(), as, op, call, values);
  }

  /** After a restart: once the member answers again, watch it again (its old watch died with it). */
  async rejoin(name: string, at: Micros): Promise<void> {
    const m = this.cluster.member(name);
    const deadline = nowUs() + 30_000_000;
    while (!this.ended && nowUs() < deadline) {
      if ((await m.rpc.status(500).catch(() => undefined)) !== undefined) {
        await within(this.watch!.open(m), 5_000, `the watch on ${name} was not recreated`).catch((e) =>
          this.note(at, why(e)),
        );
        return;
      }
      await sleepUntil(nowUs() + 100_000);
    }
    if (!this.ended) this.note(at, `${name} did not answer within 30 s of its restart`);
  }
}
