// Lease holders whose own process stalls past the TTL (the runbook's faults), seen through python-etcd3
// clientv3 and npm etcd3 on both targets (support/faults.ts): the harness stops and continues the client itself.
import { go, node, python } from './support/clients.js';
import { faultSuite } from './support/faults.js';

faultSuite([
  {
    file: 'stalled-python-holder.yaml',
    client: 'python',
    script: python('fault-python-stalled-holder', 'stalled_holder.py'),
    clientPause: { atMs: 2_000, forMs: 7_000 },
  },
  {
    file: 'stalled-go-holder.yaml',
    client: 'go',
    script: { ...go('stalled'), name: 'fault-go-stalled-holder' },
    clientPause: { atMs: 2_000, forMs: 7_000 },
  },
  {
    file: 'stalled-node-holder.yaml',
    client: 'node',
    script: node('fault-node-stalled-holder', 'stalled.ts'),
    clientPause: { atMs: 2_000, forMs: 7_000 },
  },
]);
