// The seed runbook's verification section as one script (docs/examples/verification/seed-verification.sh)
// against `lessor-sim serve` (in-process, the default 3-member cluster on the wall-paced virtual clock):
// its transcript, IDs and terms masked, must be the one real etcd 3.4.23 gave (seed-verification.spec.ts
// writes and checks that file against a real cluster). What it shows: the key gone after the 12 s stall
// of the keep-alive, the lease already expired, etcdctl 3.4 refusing `lease list --keys`, the put with the
// expired lease refused, and a fresh lease's put at the revision real etcd reached.
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../serve/harness.js';
import { normaliseTranscript } from './transcript.js';

const DIR = fileURLToPath(new URL('../../../docs/examples/verification/', import.meta.url));
const noEtcdctl = !existsSync('/usr/bin/etcdctl');
const SKIP = noEtcdctl ? ' (skipped: apt-get install -y etcd-client)' : '';

describe(`the seed's verification section against lessor-sim serve${SKIP}`, () => {
  it.skipIf(noEtcdctl)(
    "gives real etcd's transcript, IDs masked",
    async () => {
      const served = await startServe();
      let stdout: string;
      try {
        ({ stdout } = await promisify(execFile)('bash', [join(DIR, 'seed-verification.sh')], {
          env: {
            ...process.env,
            ETCDCTL_ENDPOINTS: Object.values(served.endpoints)
              .map((e) => `http://${e}`)
              .join(','),
          },
          timeout: 90_000,
        }));
      } finally {
        expect(await served.stop()).toBe(0);
      }
      expect(normaliseTranscript(stdout)).toBe(readFileSync(join(DIR, 'seed-verification.expected.txt'), 'utf8'));
    },
    150_000,
  );
});
