// Where lessor-sim serve's answers make a client print something other than what real etcd 3.4.23's
// answers make it print: each entry is one hunk of the line diff against the golden transcript. The serve
// tests assert the difference is exactly this list, so the list is the suite's honest account of what
// serve does not yet match; a fix in serve fails the test until its entry is removed here.
import type { Hunk } from './transcripts.js';

const unimplemented = (method: string): string =>
  `rpc error: code = Unimplemented desc = The server does not implement the method /etcdserverpb.Maintenance/${method}`;

export const KNOWN_GAPS: Readonly<Record<string, readonly Hunk[]>> = {
  'etcdctl-cluster': [
    // MemberList: serve advertises placeholder peer URLs (it has no peer listeners); etcd its own.
    {
      line: 2,
      etcd: [
        '<id:1>, started, n1, <peer:1>, <n1>, false',
        '<id:2>, started, n2, <peer:2>, <n2>, false',
        '<id:3>, started, n3, <peer:3>, <n3>, false',
      ],
      serve: [
        '<id:1>, started, n1, http://n1.lessor-sim:2380, <n1>, false',
        '<id:2>, started, n2, http://n2.lessor-sim:2380, <n2>, false',
        '<id:3>, started, n3, http://n3.lessor-sim:2380, <n3>, false',
      ],
    },
    // Maintenance.Alarm (etcdctl alarm list): etcd answers no alarms.
    { line: 93, etcd: ['exit 0'], serve: [`Error: ${unimplemented('Alarm')}`, 'exit 1'] },
    // Maintenance.Defragment.
    {
      line: 95,
      etcd: [
        'Finished defragmenting etcd member[<n1>]',
        'Finished defragmenting etcd member[<n2>]',
        'Finished defragmenting etcd member[<n3>]',
        'exit 0',
      ],
      serve: [
        `Failed to defragment etcd member[<n1>] (${unimplemented('Defragment')})`,
        `Failed to defragment etcd member[<n2>] (${unimplemented('Defragment')})`,
        `Failed to defragment etcd member[<n3>] (${unimplemented('Defragment')})`,
        'exit 1',
      ],
    },
    // Maintenance.HashKV (etcdctl endpoint hashkv).
    {
      line: 100,
      etcd: ['<n1>, 3651995044', '<n2>, 3651995044', '<n3>, 3651995044', 'exit 0'],
      serve: [
        `Failed to get the hash of endpoint <n1> (${unimplemented('HashKV')})`,
        `Failed to get the hash of endpoint <n2> (${unimplemented('HashKV')})`,
        `Failed to get the hash of endpoint <n3> (${unimplemented('HashKV')})`,
        `Error: ${unimplemented('HashKV')}`,
        'exit 1',
      ],
    },
    // Maintenance.MoveLeader: etcd refuses an unknown transferee with ErrBadLeaderTransferee and moves the
    // leadership to n2 when asked; serve answers neither, so n1 still leads in the status that follows.
    { line: 106, etcd: ['Error: etcdserver: bad leader transferee'], serve: [`Error: ${unimplemented('MoveLeader')}`] },
    {
      line: 109,
      etcd: ['Leadership transferred from <id:1> to <id:2>', 'exit 0'],
      serve: [`Error: ${unimplemented('MoveLeader')}`, 'exit 1'],
    },
    {
      line: 112,
      etcd: [
        '<n1>, <id:1>, 3.4.23, <db size>, false, false, <term>, <index>, <applied>, ',
        '<n2>, <id:2>, 3.4.23, <db size>, true, false, <term>, <index>, <applied>, ',
      ],
      serve: [
        '<n1>, <id:1>, 3.4.23, <db size>, true, false, <term>, <index>, <applied>, ',
        '<n2>, <id:2>, 3.4.23, <db size>, false, false, <term>, <index>, <applied>, ',
      ],
    },
  ],
};
