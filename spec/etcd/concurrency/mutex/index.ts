import type { RestatedFile } from '../../restated.js';

export const MUTEX: RestatedFile = {
  source: 'tests/integration/clientv3/concurrency/mutex_test.go@v3.5.33',
  tests: [
    // clientv3 3.4's Lock returns success here (etcd-io/etcd#11456); the test came with the 3.5 fix.
    { test: 'TestMutexLockSessionExpired', file: 'lock-session-expired.yaml', profiles: ['v3.5'] },
    {
      test: 'TestMutexUnlock',
      reason:
        'only on etcd main (3.6+): it asserts ErrLockReleased from an Unlock without a held lock, an ' +
        'error clientv3 3.4 and 3.5 do not have (their Unlock deletes the key "\\x00" and succeeds)',
    },
  ],
};
