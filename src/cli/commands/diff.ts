import type { Command } from '../command.js';

export const diffCommand: Command = {
  name: 'diff',
  summary: 'replay in the model (v3.4) and on a real local etcd 3.4 cluster, side by side',
  args: 'FILE...',
  positionals: { min: 1, max: Infinity },
  flags: {},
  details: [
    "Needs etcd and etcdctl 3.4 on $PATH (Debian's etcd-server and etcd-client). Files with steps the real",
    'cluster cannot perform faithfully (partitions, clock jumps, bug switches) are refused (exit 2).',
  ].join('\n'),
  run: async (inv) => {
    const { runDiff } = await import('../../real-etcd/index.js');
    return runDiff([...inv.positionals], { out: inv.io.out, err: inv.io.err });
  },
};
