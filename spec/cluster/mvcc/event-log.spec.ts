import { describe, expect, it } from 'vitest';
import { EventLog } from '../../../src/cluster/mvcc/event-log.js';
import type { KvRecord } from '../../../src/cluster/mvcc/index.js';

const rec = (key: string, rev: number, sub = 0): KvRecord => ({
  key,
  value: '',
  createRevision: rev,
  modRevision: rev,
  version: 1,
  lease: 0n,
  subRevision: sub,
  tombstone: false,
});

const keys = (rs: KvRecord[] | undefined) => rs?.map((r) => `${r.key}@${r.modRevision}`);

describe('mvcc EventLog', () => {
  it('keeps everything without a cap', () => {
    const log = new EventLog(Infinity);
    log.append([rec('/a', 2)]);
    log.append([rec('/b', 3), rec('/c', 3, 1)]);
    expect(keys(log.since(1))).toEqual(['/a@2', '/b@3', '/c@3']);
    expect(keys(log.since(3))).toEqual(['/b@3', '/c@3']);
    expect(keys(log.since(4))).toEqual([]);
    expect(log.compactRevision).toBe(0);
  });

  it('drops the oldest changes when over the cap and refuses replay from a revision that lost any', () => {
    const log = new EventLog(2);
    log.append([rec('/a', 2)]);
    log.append([rec('/b', 3), rec('/c', 3, 1)]);
    // Over by one: /a goes, revision 3 fits.
    expect(log.compactRevision).toBe(2);
    expect(log.since(2)).toBeUndefined();
    expect(keys(log.since(3))).toEqual(['/b@3', '/c@3']);
    log.append([rec('/d', 4)]);
    // /b goes, /c stays: revision 3 is incomplete, so replay starts after it.
    expect(log.compactRevision).toBe(3);
    expect(log.since(3)).toBeUndefined();
    expect(keys(log.since(4))).toEqual(['/d@4']);
    log.append([rec('/e', 5), rec('/f', 5, 1), rec('/g', 5, 2)]);
    expect(log.compactRevision).toBe(5);
    expect(keys(log.since(6))).toEqual([]);
  });

  it('stays bounded over many appends', () => {
    const log = new EventLog(10);
    for (let rev = 2; rev < 10_000; rev++) log.append([rec('/k', rev)]);
    expect(keys(log.since(9_990))).toHaveLength(10);
    expect(log.since(9_989)).toBeUndefined();
  });
});
