// The conformance suite's normalisation masks what differs between two real etcd runs and nothing a wrong
// model would change; its line diff names exactly the lines that differ.
import { describe, expect, it } from 'vitest';
import { normalise } from './support/normalise.js';
import { diffLines } from './support/transcripts.js';

const EPS = ['http://127.0.0.1:40001', 'http://127.0.0.1:40002', 'http://127.0.0.1:40003'];

describe('normalise', () => {
  it('maps endpoints by position and other ports by first appearance', () => {
    expect(
      normalise('a, started, n2, http://127.0.0.1:51000, http://127.0.0.1:40002\n127.0.0.1:40001 127.0.0.1:51000', EPS),
    ).toBe('a, started, n2, <peer:1>, <n2>\n<n1> <peer:1>');
  });

  it('maps IDs by value, so the padded and unpadded hex and the decimal form of one ID agree', () => {
    const t =
      'lease 07e6a23b08431c0f granted\nkey lock/7e6a23b08431c0f\n"Lease" : 569320777334332431\nlease 12c9a23b08431c12';
    expect(normalise(t, EPS)).toBe('lease <id:1> granted\nkey lock/<id:1>\n"Lease" : <id:1>\nlease <id:2>');
  });

  it('keeps two leases that share one ID as one placeholder (a model handing out one ID twice shows)', () => {
    expect(normalise('lease 12c9a23b08431c12\nlease 12c9a23b08431c12', EPS)).toBe('lease <id:1>\nlease <id:1>');
  });

  it('leaves revisions, small numbers, zero lease IDs and words alone', () => {
    const t = '"Revision" : 19\nlease=0000000000000000\nrevision 1234567\nkv/cafe value';
    expect(normalise(t, EPS)).toBe(t);
  });

  it("masks the raft term, index and etcd's database size", () => {
    expect(normalise('http://127.0.0.1:40001, b97c138fff96bdc, 3.4.23, 25 kB, true, false, 2, 97, 97, ', EPS)).toBe(
      '<n1>, <id:1>, 3.4.23, <db size>, true, false, <term>, <index>, <applied>, ',
    );
    expect(normalise('"RaftTerm" : 3\n"RaftIndex" : 15\n"DBSize" : 20480\n"Revision" : 2', EPS)).toBe(
      '"RaftTerm" : <term>\n"RaftIndex" : <RaftIndex>\n"DBSize" : <DBSize>\n"Revision" : 2',
    );
    expect(normalise('{"header":{"revision":7,"raft_term":2},"count":1}', EPS)).toBe(
      '{"header":{"revision":7,"raft_term":<term>},"count":1}',
    );
  });

  it('masks a remaining TTL one to three seconds below the granted one, and only that', () => {
    expect(normalise('TTL(10s), remaining(9s)\nTTL(10s), remaining(7s)', EPS)).toBe(
      'TTL(10s), remaining(9~s)\nTTL(10s), remaining(9~s)',
    );
    // No truncation, too little left, the -1 of a lease that is gone: all kept.
    const kept = 'TTL(10s), remaining(10s)\nTTL(10s), remaining(6s)\nTTL(0s), remaining(-1s)';
    expect(normalise(kept, EPS)).toBe(kept);
  });

  it("sorts a lease's attached keys (etcd answers them in Go map order)", () => {
    expect(normalise('remaining(9s), attached keys([lease/b lease/a])', EPS)).toBe(
      'remaining(9s), attached keys([lease/a lease/b])',
    );
  });

  it('masks the durations endpoint health prints', () => {
    expect(normalise('is healthy: successfully committed proposal: took = 3.97ms', EPS)).toBe(
      'is healthy: successfully committed proposal: took = <duration>',
    );
  });
});

describe('diffLines', () => {
  it('names each replaced, missing and extra line with its place in the golden transcript', () => {
    expect(diffLines('a\nb\nc\nd', 'a\nB\nc\nd\ne')).toEqual([
      { line: 2, etcd: ['b'], serve: ['B'] },
      { line: 5, etcd: [], serve: ['e'] },
    ]);
    expect(diffLines('a\nb', 'a\nb')).toEqual([]);
    expect(diffLines('a\nb\nc', 'a\nc')).toEqual([{ line: 2, etcd: ['b'], serve: [] }]);
  });
});
