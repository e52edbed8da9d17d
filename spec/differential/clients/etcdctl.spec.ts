// etcdctl 3.4.23 against real etcd 3.4.23 and against lessor-sim serve: every lease command, the key
// commands with their range options, txn from stdin, watch, lock and elect with a second contender, and
// the cluster commands (spec/clients/etcdctl/*.sh).
import { etcdctl, missing } from './support/clients.js';
import { conformance } from './support/conformance.js';

conformance('etcdctl', missing('etcdctl'), [
  etcdctl('lease', 120_000),
  etcdctl('kv', 120_000),
  etcdctl('lock-elect', 120_000),
  etcdctl('cluster', 60_000),
]);
