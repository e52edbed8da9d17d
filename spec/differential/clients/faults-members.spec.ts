// Member faults seen through real clients (support/faults.ts): a frozen leader under etcdctl's keep-alive
// through a follower, a crashed member under etcdctl talking to it alone, a crashed leader under clientv3's
// KeepAlive on all endpoints; served only, a partitioned leader under etcdctl's keep-alive and under clientv3's
// require-leader KeepAlive, each through n1 alone.
import { etcdctl, go } from './support/clients.js';
import { faultSuite } from './support/faults.js';

faultSuite([
  {
    file: 'frozen-leader.yaml',
    client: 'etcdctl',
    script: { ...etcdctl('frozen-leader', 90_000), name: 'fault-etcdctl-frozen-leader' },
  },
  {
    file: 'crashed-member.yaml',
    client: 'etcdctl',
    script: { ...etcdctl('crashed-member', 90_000), name: 'fault-etcdctl-crashed-member' },
  },
  {
    file: 'partitioned-leader.yaml',
    client: 'etcdctl',
    script: { ...etcdctl('partitioned-leader', 90_000), name: 'fault-etcdctl-partitioned-leader' },
    servedOnly: 'the real-etcd driver cannot partition members on loopback',
  },
  { file: 'crashed-leader.yaml', client: 'go', script: { ...go('failover'), name: 'fault-go-crashed-leader' } },
  {
    file: 'partitioned-leader-go.yaml',
    client: 'go',
    script: { ...go('partitioned'), name: 'fault-go-partitioned-leader' },
    servedOnly: 'the real-etcd driver cannot partition members on loopback',
  },
]);
