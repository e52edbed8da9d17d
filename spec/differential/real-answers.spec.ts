import * as grpc from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { RpcFailure } from '../../src/real-etcd/etcd-rpc.js';
import { asAnswer, realErrorName } from '../../src/real-etcd/real-answers.js';
import { errorNameOf } from '../../src/scenario/answer-errors.js';
import { AnswerBook } from '../../src/scenario/replay/answers.js';

const failure = (code: number, details: string) => new RpcFailure('LeaseRevoke', code, details);

describe('real etcd answers', () => {
  it("names etcd's errors by their text, as the scenario names them", () => {
    expect(realErrorName(failure(grpc.status.NOT_FOUND, 'etcdserver: requested lease not found'))).toBe(
      errorNameOf('ErrLeaseNotFound'),
    );
    expect(realErrorName(failure(grpc.status.FAILED_PRECONDITION, 'etcdserver: lease already exists'))).toBe(
      errorNameOf('ErrLeaseExist'),
    );
    expect(realErrorName(failure(grpc.status.UNAVAILABLE, 'etcdserver: request timed out'))).toBe(
      errorNameOf('ErrTimeout'),
    );
    expect(realErrorName(failure(grpc.status.UNAVAILABLE, 'etcdserver: no leader'))).toBe(
      errorNameOf('ErrGRPCNoLeader'),
    );
    expect(realErrorName(failure(grpc.status.DEADLINE_EXCEEDED, 'Deadline exceeded'))).toBe(
      errorNameOf('context.DeadlineExceeded'),
    );
  });

  it('records a named request: values on success, the error by name on failure (thrown on)', async () => {
    const book = new AnswerBook();
    let now = 10;
    const clock = () => now;
    await asAnswer(
      book,
      clock,
      'G',
      'grant',
      async () => ({ ttl: 9 }),
      (v) => ({ ttl: v.ttl }),
    );
    const failing = asAnswer(
      book,
      clock,
      'R',
      'revoke',
      async () => {
        now = 25;
        throw failure(grpc.status.NOT_FOUND, 'etcdserver: requested lease not found');
      },
      () => ({}),
    );
    await expect(failing).rejects.toThrow('requested lease not found');
    expect(book.get('G')).toEqual({ op: 'grant', sentUs: 10, answeredUs: 10, ttl: 9 });
    expect(book.get('R')).toEqual({ op: 'revoke', sentUs: 10, answeredUs: 25, error: 'ErrLeaseNotFound' });
  });
});
