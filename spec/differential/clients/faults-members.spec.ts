// Member faults seen through real clients (support/faults.ts): a frozen leader under etcdctl's keep-alive
// through a follower, a crashed member under etcdctl talking to it alone, a crashed leader under clientv3's
// KeepAlive on all endpoints.
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
  { file: 'crashed-leader.yaml', client: 'go', script: { ...go('failover'), name: 'fault-go-crashed-leader' } },
]);
