/** What a replay is given (RunOptions), what it gathers as it goes (RunRecord) and returns (RunResult). */
import type { RunGuard } from '../../clock/run-guard.js';
import type { Micros } from '../../clock/time.js';
import type { Cluster } from '../../cluster/cluster.js';
import type { ClusterObserver } from '../../cluster/observer.js';
import type { UserHolderFn } from '../../holder/index.js';
import { Marks } from '../../trace/marks.js';
import { Trace } from '../../trace/trace.js';
import type { ExpectStep, Scenario } from '../types.js';
import { LabelBook } from './labels.js';
import type { StepExecutor } from './step-executor.js';
import type { RunStop } from './stop.js';

export interface RunOptions {
  /** Overrides the scenario's seed (the CLI's --seed). */
  readonly seed?: number;
  /** Overrides the scenario's profile (the CLI's --profile). */
  readonly profile?: Scenario['profile'];
  /** The trace to record into (e.g. one without hashing, for campaigns); a fresh one by default. */
  readonly trace?: Trace;
  /** Called with the cluster once it is built, so a harness can inspect it during the run. */
  readonly onCluster?: (cluster: Cluster) => void;
  /** An onlooker of messages and run-loop passes (the playground's picture); the trace stays the same. */
  readonly observer?: ClusterObserver;
  /**
   * An event budget, a poll hook (wall-clock timeout, progress); the livelock threshold overrides livelockThresholdOf.
   */
  readonly guard?: RunGuard;
  /** Holders written in TypeScript, for `strategy: user:<name>` (only `runScenarioAsync` runs them). */
  readonly userHolders?: Readonly<Record<string, UserHolderFn>>;
  /**
   * The endpoints a scenario client gets: every member, starting with its first `via` and failing over
   * in order ('all', the default), or only that member ('one': as `etcdctl --endpoints=URL`, which the
   * real-etcd driver runs, so `diff` gives both sides the same endpoints).
   */
  readonly clientEndpoints?: 'all' | 'one';
}

export interface AssertionResult {
  readonly step: ExpectStep;
  readonly atUs: Micros;
  readonly passed: boolean;
  /** The assertion in words. */
  readonly text: string;
  /** What was observed. */
  readonly got: string;
}

export interface RunResult {
  readonly scenario: Scenario;
  readonly seed: number;
  readonly profile: Scenario['profile'];
  readonly assertions: readonly AssertionResult[];
  /** A problem that stopped the scenario from running as written (bad cluster settings, no leader at 0). */
  readonly setupError: string | undefined;
  /** User holders that threw, each saying where (absent: none did). */
  readonly holderErrors?: readonly string[];
  readonly trace: Trace;
  readonly marks: Marks;
  readonly labels: LabelBook;
  readonly cluster: Cluster | undefined;
  /** Set when a guard ended the run early; assertions after `stopped.atUs` were not evaluated. */
  readonly stopped?: RunStop;
  readonly passed: boolean;
}

/** What a replay has gathered so far; `result` makes a RunResult of it at any moment. */
export class RunRecord {
  readonly seed: number;
  readonly profile: Scenario['profile'];
  readonly trace: Trace;
  readonly marks = new Marks();
  readonly labels = new LabelBook();
  readonly assertions: AssertionResult[] = [];
  readonly holderErrors: string[] = [];
  cluster: Cluster | undefined;
  executor: StepExecutor | undefined;

  constructor(
    readonly scenario: Scenario,
    opts: RunOptions,
  ) {
    this.seed = opts.seed ?? scenario.seed;
    this.profile = opts.profile ?? scenario.profile;
    this.trace = opts.trace ?? new Trace();
  }

  result(setupError: string | undefined, stopped?: RunStop): RunResult {
    const { scenario, seed, profile, assertions, holderErrors, trace, marks, labels, cluster } = this;
    return {
      scenario,
      seed,
      profile,
      assertions,
      setupError,
      holderErrors,
      trace,
      marks,
      labels,
      cluster,
      ...(stopped !== undefined ? { stopped } : {}),
      passed:
        setupError === undefined &&
        stopped === undefined &&
        holderErrors.length === 0 &&
        assertions.every((a) => a.passed),
    };
  }
}
