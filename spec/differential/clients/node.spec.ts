// npm etcd3 1.1.2 against real etcd 3.4.23 and against lessor-sim serve (spec/clients/node/etcd3.ts).
import { missing, node } from './support/clients.js';
import { conformance } from './support/conformance.js';

conformance('npm etcd3', missing('node'), [node('npm-etcd3', 'etcd3.ts')]);
