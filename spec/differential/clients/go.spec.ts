// Go clientv3 (etcd 3.4.23's, built in GOPATH mode) against real etcd 3.4.23 and against lessor-sim serve:
// Grant, KeepAliveOnce, TimeToLive, KeepAlive closed by a revoke from another client, concurrency.Session
// and a contended Mutex, and the KV, Txn, Compact and Watch calls etcdctl 3.4 cannot make
// (spec/clients/go/*.go).
import { go, missing } from './support/clients.js';
import { conformance } from './support/conformance.js';

conformance('Go clientv3', missing('go'), [go('lease'), go('session'), go('kv')]);
