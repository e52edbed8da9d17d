/** What a step kind's real-etcd entry (real-steps.ts) may use of the running replay on live etcd. */
import type { Micros } from '../clock/time.js';
import type { AnswerValues } from '../scenario/replay/answers.js';
import type { Step } from '../scenario/types.js';
import type { EtcdCluster } from './etcd-cluster.js';
import type { EtcdMember } from './etcd-member.js';
import type { LeaseIds } from './lease-ids.js';
import type { ObservedKind } from './observed.js';
import type { ReplayClients } from './replay-clients.js';

export interface RealStepReplay {
  readonly cluster: EtcdCluster;
  readonly ids: LeaseIds;
  readonly clients: ReplayClients;
  /** The wall-clock µs at which scenario time `atUs` falls. */
  wallUs(atUs: Micros): Micros;
  /** Something the reader should know, stamped with the step's time. */
  note(atUs: Micros, text: string): void;
  observe(kind: ObservedKind, subject: string, value?: number): void;
  /** A grant of a grant-many, recorded only when it is one worth a row. */
  observeBulkGrant(label: string, ttl: number): void;
  /** Work that runs past its instant; the run waits for it before it ends. */
  inBackground(p: Promise<unknown>): void;
  /** Runs `fn` after everything queued before it on the same FIFO; failures become notes. */
  enqueue(fifo: string, at: Micros, what: string, fn: () => Promise<void>): Promise<void>;
  /** Where etcdctl would send a request: `via`, else the leader at this instant, else n1. */
  target(via: string | undefined): EtcdMember;
  /** Queues a request on its target member's FIFO. */
  request(s: Step & { via?: string }, what: string, fn: (m: EtcdMember) => Promise<void>): void;
  /** The lease behind a label, waiting for its grant; throws (a note) if it was never granted. */
  lease(label: string): Promise<bigint>;
  /** After a restart: once the member answers again, watch it again (its old watch died with it). */
  rejoin(name: string, at: Micros): Promise<void>;
  /** Runs `call` as the request a step named `as` (if it names one), recording its answer (real-answers.ts). */
  named<T>(
    as: string | undefined,
    op: string,
    call: () => Promise<T>,
    values: (v: T) => { error: string } | AnswerValues,
  ): Promise<T>;
}
