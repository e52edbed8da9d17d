import { Process } from '../../src/clock/process.js';
import { Scheduler } from '../../src/clock/scheduler.js';
import {
  LeaseBucket,
  PROFILES,
  createLessor,
  type LessorConfig,
  type Profile,
  type TxnDelete,
} from '../../src/lessor/index.js';
import { Marks } from '../../src/trace/marks.js';
import { Trace } from '../../src/trace/trace.js';

/** etcd's lessor_test.go fixture: minLeaseTTL 5 and cluster version 3.6.0. */
export const minLeaseTTL = 5;

export const profiles: Profile[] = [PROFILES['v3.4'], PROFILES['v3.5']];

/** etcd's fakeDeleter: records `key_end` for each DeleteRange; no mvcc behind it, so itemMap stays. */
export class FakeDeleter {
  readonly deleted: string[] = [];
  txn = (): TxnDelete => ({
    deleteRange: (key) => this.deleted.push(`${key}_`),
    end: () => {},
  });
}

export function harness(profile: Profile, cfg: Partial<LessorConfig> = {}, bucket = new LeaseBucket()) {
  const sched = new Scheduler();
  const proc = new Process('n1', sched);
  const trace = new Trace();
  const marks = new Marks();
  const make = (b: LeaseBucket, c: Partial<LessorConfig> = cfg) =>
    createLessor(
      proc,
      { minLeaseTTLSeconds: minLeaseTTL, clusterVersion: '3.6.0', profile, ...c },
      { bucket: b, trace, marks },
    );
  const lessor = make(bucket);
  return { sched, proc, trace, marks, bucket, lessor, make };
}
