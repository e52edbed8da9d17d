// python-etcd3 0.12 (Debian's, run by /usr/bin/python3) against real etcd 3.4.23 and against lessor-sim
// serve (spec/clients/python/lease_kv.py).
import { missing, python } from './support/clients.js';
import { conformance } from './support/conformance.js';

conformance('python-etcd3', missing('python'), [python('python-etcd3', 'lease_kv.py')]);
