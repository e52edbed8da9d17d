/**
 * The answers of requests a scenario names (`as: NAME` on the step), for `expect: { answer: NAME, … }`.
 * Each is recorded as its request is sent and completed when the answer arrives, on the virtual clock
 * in the simulation and on the wall clock (µs since time 0) in the real-etcd replay, so one verdict
 * function judges both.
 */
import type { Micros } from '../../clock/time.js';
import type { ResponseOp } from '../../cluster/server/api.js';
import type { KeyValue } from '../../cluster/mvcc/index.js';
import type { KeepAliveChannel, KeepAliveCloseReason } from '../../client/index.js';

/** What an answer carried; absent fields were not in it. */
export interface AnswerValues {
  readonly ttl?: number;
  readonly grantedTTL?: number;
  readonly id?: bigint;
  /** LeaseLeases: the IDs in the order listed. */
  readonly leases?: readonly bigint[];
  readonly revision?: number;
  /** TimeToLive: the keys attached (listed only when the request asked for them). */
  readonly keys?: readonly string[];
  /** Txn: whether its compares held, and what each op of the branch taken returned. */
  readonly succeeded?: boolean;
  readonly responses?: readonly TxnOpAnswer[];
}

/** One op's answer within a Txn answer (etcd's ResponseOp), the same from the model and from real etcd. */
export interface TxnOpAnswer {
  readonly op: 'get' | 'put' | 'delete' | 'txn';
  readonly revision: number;
  readonly kvs?: readonly KeyValue[];
  readonly count?: number;
  readonly more?: boolean;
  readonly deleted?: number;
  readonly succeeded?: boolean;
  readonly responses?: readonly TxnOpAnswer[];
}

const OP_NAMES = { Range: 'get', Put: 'put', DeleteRange: 'delete', Txn: 'txn' } as const;

/** The model's ResponseOps as answers. */
export function txnOpAnswers(responses: readonly ResponseOp[]): TxnOpAnswer[] {
  return responses.map(txnOpAnswer);
}

function txnOpAnswer(r: ResponseOp): TxnOpAnswer {
  const base = { op: OP_NAMES[r.op], revision: r.revision };
  switch (r.op) {
    case 'Range':
      return { ...base, kvs: r.kvs, count: r.count, more: r.more };
    case 'Put':
      return base;
    case 'DeleteRange':
      return { ...base, deleted: r.deleted };
    case 'Txn':
      return { ...base, succeeded: r.succeeded, responses: txnOpAnswers(r.responses) };
  }
}

export interface Answer extends AnswerValues {
  readonly op: string;
  readonly sentUs: Micros;
  /** Undefined while the answer has not come. */
  readonly answeredUs?: Micros;
  /** The error by the simulation's name (answer-errors.ts); undefined for a success. */
  readonly error?: string;
}

export class AnswerBook {
  private readonly answers = new Map<string, Answer>();

  /** The request named `name` goes out now; the returned function records its answer. */
  sent(name: string, op: string, nowUs: () => Micros): (outcome: { error: string } | AnswerValues) => Answer {
    const sentUs = nowUs();
    this.answers.set(name, { op, sentUs });
    return (outcome) => {
      const a = { op, sentUs, answeredUs: nowUs(), ...outcome };
      this.answers.set(name, a);
      return a;
    };
  }

  get(name: string): Answer | undefined {
    return this.answers.get(name);
  }
}

/** A KeepAlive call a step named: its channel, whose client made it, and the unread buffer if any. */
export interface NamedChannel {
  readonly ch: KeepAliveChannel;
  readonly client: string;
  readonly unreadBuffer?: number;
}

/** What a reader of the channel has been given: every response, or only what an unread buffer holds. */
export const channelResponses = (c: NamedChannel): number =>
  c.unreadBuffer === undefined ? c.ch.responses : Math.min(c.ch.responses, c.unreadBuffer);

/**
 * Why a channel closed, as the error that ended it by the simulation's name (answer-errors.ts): a
 * require-leader stream ended with ErrNoLeader; a TTL 0 response is the server's ErrLeaseNotFound; a
 * cancelled context or a closed client is context.Canceled. The keep-alive deadline closes the channel
 * with no error at all (clientv3's deadlineLoop), so it has none.
 */
const CLOSE_ERRORS: Readonly<Record<KeepAliveCloseReason, string | undefined>> = {
  'no-leader': 'ErrNoLeader',
  'ttl<=0': 'ErrLeaseNotFound',
  cancelled: 'Canceled',
  'client-closed': 'Canceled',
  deadline: undefined,
};

export const channelCloseError = (reason: KeepAliveCloseReason): string | undefined => CLOSE_ERRORS[reason];
