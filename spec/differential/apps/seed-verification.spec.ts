// The seed runbook's verification section as one script (docs/examples/verification) against a real
// etcd 3.4.23 cluster of three members: its transcript, IDs and terms masked, is the committed one. The
// same script and comparison are meant for `lessor-sim serve`. LESSOR_SIM_UPDATE_TRANSCRIPT=1 rewrites
// the expected file from this run.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { findEtcd } from '../../../src/real-etcd/binaries.js';
import { ChildRegistry } from '../../../src/real-etcd/children.js';
import { EtcdCluster } from '../../../src/real-etcd/etcd-cluster.js';
import { normaliseTranscript } from './transcript.js';

const DIR = fileURLToPath(new URL('../../../docs/examples/verification/', import.meta.url));
const SCRIPT = join(DIR, 'seed-verification.sh');
const EXPECTED = join(DIR, 'seed-verification.expected.txt');
const noEtcd = !existsSync('/usr/bin/etcd') || !existsSync('/usr/bin/etcdctl');
const SKIP = noEtcd ? ' (skipped: apt-get install -y etcd-server etcd-client)' : '';
const FLAGS = {
  heartbeatMs: 100,
  electionMs: 1000,
  leaseCheckpoint: false,
  leaseCheckpointPersist: false,
  preVote: false,
};

describe(`the seed's verification section on etcd 3.4.23${SKIP}`, () => {
  it.skipIf(noEtcd)(
    'gives the committed transcript: the key gone after the 12 s stall, the lease already expired, ' +
      '`lease list --keys` refused by etcdctl 3.4, the put with the old lease refused, a fresh one at a ' +
      'higher revision',
    async () => {
      const registry = new ChildRegistry();
      try {
        const cluster = await EtcdCluster.start({ members: 3, flags: FLAGS, binaries: findEtcd(), registry });
        const { stdout } = await promisify(execFile)('bash', [SCRIPT], {
          env: { ...process.env, ETCDCTL_ENDPOINTS: cluster.members.map((m) => m.clientUrl).join(',') },
          timeout: 90_000,
        });
        const got = normaliseTranscript(stdout);
        if (process.env.LESSOR_SIM_UPDATE_TRANSCRIPT === '1') writeFileSync(EXPECTED, got);
        expect(got).toBe(readFileSync(EXPECTED, 'utf8'));
      } finally {
        await registry.close();
      }
    },
    150_000,
  );
});
