import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ms } from '../../../src/clock/time.js';
import { RaftCluster } from './harness.js';

/** A fault or a client action, applied to the cluster at some moment. */
type Command =
  | { readonly kind: 'crash' | 'pause' | 'resume' | 'campaign' | 'transfer'; readonly member: number }
  | { readonly kind: 'restart'; readonly member: number; readonly keepStateMachine: boolean }
  | { readonly kind: 'partition'; readonly groupOf: readonly number[] }
  | { readonly kind: 'heal' }
  | { readonly kind: 'propose'; readonly count: number };

const member = fc.nat(4);
const command: fc.Arbitrary<Command> = fc.oneof(
  fc.record({ kind: fc.constantFrom('crash', 'pause', 'resume', 'campaign', 'transfer'), member }),
  fc.record({ kind: fc.constant('restart'), member, keepStateMachine: fc.boolean() }),
  fc.record({ kind: fc.constant('partition'), groupOf: fc.array(fc.nat(2), { minLength: 5, maxLength: 5 }) }),
  fc.record({ kind: fc.constant('heal') }),
  fc.record({ kind: fc.constant('propose'), count: fc.integer({ min: 1, max: 4 }) }),
);

const scenario = fc.record({
  members: fc.constantFrom(3, 5),
  seed: fc.nat(),
  preVote: fc.boolean(),
  checkQuorum: fc.boolean(),
  // Short timeouts next to the network's delays make elections race more often.
  timing: fc.constantFrom({ heartbeatMs: 100, electionMs: 1000 }, { heartbeatMs: 10, electionMs: 50 }),
  fsyncUs: fc.constantFrom(0, ms(1), ms(3)),
  jitterUs: fc.constantFrom(0, ms(3)),
  lossProbability: fc.constantFrom(0, 0.05),
  /** Each command comes `gap` percent of an election timeout after the previous one. */
  steps: fc.array(fc.record({ gap: fc.integer({ min: 0, max: 150 }), command }), {
    minLength: 5,
    maxLength: 40,
    size: 'max',
  }),
});

type Scenario = typeof scenario extends fc.Arbitrary<infer S> ? S : never;

let proposals = 0;

function apply(c: RaftCluster, cmd: Command): void {
  const id = (m: number) => c.ids[m % c.ids.length]!;
  switch (cmd.kind) {
    case 'crash':
      c.crash(id(cmd.member));
      return;
    case 'restart':
      if (!c.proc(id(cmd.member)).alive) c.restart(id(cmd.member), cmd.keepStateMachine);
      return;
    case 'pause':
      c.proc(id(cmd.member)).pause();
      return;
    case 'resume':
      c.proc(id(cmd.member)).resume();
      return;
    case 'campaign':
      if (c.proc(id(cmd.member)).running) c.node(id(cmd.member)).campaign();
      return;
    case 'transfer':
      c.leader()?.transferLeadership(id(cmd.member));
      return;
    case 'partition': {
      const groups: string[][] = [[], [], []];
      c.ids.forEach((m, i) => {
        groups[cmd.groupOf[i]!]!.push(m);
      });
      c.net.partition(groups.filter((g) => g.length > 0));
      return;
    }
    case 'heal':
      c.net.heal();
      return;
    case 'propose':
      // Every member that believes it leads takes proposals: stale leaders must never get them committed.
      for (const [m, n] of c.nodes) {
        if (!c.proc(m).running) continue;
        for (let i = 0; i < cmd.count; i++) n.propose(`p${proposals++}`);
      }
      return;
  }
}

/** Runs the scenario; the harness throws on any safety violation. Ends by healing and checking progress. */
function run(s: Scenario): void {
  const c = new RaftCluster({
    members: s.members,
    seed: s.seed,
    raft: { ...s.timing, preVote: s.preVote, checkQuorum: s.checkQuorum, fsyncUs: s.fsyncUs },
    net: { jitterUs: s.jitterUs, lossProbability: s.lossProbability },
  });
  c.node('n1').campaign();
  for (const step of s.steps) {
    c.run(Math.round((ms(s.timing.electionMs) * step.gap) / 100));
    apply(c, step.command);
    c.checkLogMatching();
  }
  c.net.heal();
  for (const id of c.ids) {
    c.proc(id).resume();
    if (!c.proc(id).alive) c.restart(id);
  }
  // Liveness once every fault is gone: some leader gets a proposal applied everywhere. A restarted member
  // with a higher term may still depose a leader first (no PreVote), so a lost proposal is made again.
  const settled = () => {
    const l = c.leader();
    return l !== undefined && l.transferee === undefined && l.log.term(l.commitIndex) === l.term;
  };
  const appliedEverywhere = () => c.ids.every((id) => c.appliedBy(id).some((a) => a.entry.data === 'final'));
  for (let attempt = 0; !appliedEverywhere(); attempt++) {
    if (attempt === 5 || c.runUntil(settled, ms(20_000)) === undefined)
      throw new Error('no progress after healing everything');
    c.leader()!.propose('final');
    c.runUntil(appliedEverywhere, ms(3000));
  }
  c.runUntil(() => new Set(c.ids.map((id) => c.appliedBy(id).length)).size === 1, ms(3000));
  c.checkLogMatching();
  const reference = c.appliedBy('n1').map((a) => a.entry.data);
  for (const id of c.ids) expect(c.appliedBy(id).map((a) => a.entry.data)).toEqual(reference);
}

describe('raft safety under random faults', () => {
  it('keeps Election Safety, Log Matching, Leader Completeness and State Machine Safety', () => {
    const seed = process.env.FC_SEED === undefined ? undefined : Number(process.env.FC_SEED);
    const numRuns = Number(process.env.FC_RUNS ?? 500);
    const out = fc.check(
      fc.property(scenario, (s) => run(s)),
      seed === undefined ? { numRuns } : { numRuns, seed },
    );
    if (out.failed) {
      const cause = out.errorInstance instanceof Error ? out.errorInstance.message : String(out.errorInstance);
      throw new Error(
        `raft safety property failed: ${cause}\nreplay with FC_SEED=${out.seed}\n${fc.defaultReportMessage(out) ?? ''}`,
      );
    }
  }, 60_000);
});
