import type { RestatedFile } from '../../restated.js';

const BOTH = ['v3.4', 'v3.5'] as const;
const RECIPES =
  'experimental/recipes RWMutex (a readers-writer lock built from keys, Txns and watches) is not in ' +
  'the model, which has concurrency.Mutex only';

export const V3_LOCK: RestatedFile = {
  source: 'tests/integration/clientv3/experimental/recipes/v3_lock_test.go@v3.5.33',
  tests: [
    { test: 'TestMutexLockSingleNode', file: 'lock-single-node.yaml', profiles: BOTH },
    { test: 'TestMutexLockMultiNode', file: 'lock-multi-node.yaml', profiles: BOTH },
    {
      test: 'testMutexLock',
      reason: 'the helper of TestMutexLockSingleNode and TestMutexLockMultiNode, restated with them',
    },
    // TryLock came with clientv3 3.5.
    { test: 'TestMutexTryLockSingleNode', file: 'trylock-single-node.yaml', profiles: ['v3.5'] },
    { test: 'TestMutexTryLockMultiNode', file: 'trylock-multi-node.yaml', profiles: ['v3.5'] },
    {
      test: 'testMutexTryLock',
      reason: 'the helper of TestMutexTryLockSingleNode and TestMutexTryLockMultiNode, restated with them',
    },
    { test: 'TestMutexSessionRelock', file: 'session-relock.yaml', profiles: BOTH },
    // The victim's Lock returns ErrSessionExpired in clientv3 3.5 and success in 3.4 (etcd-io/etcd#11456);
    // the Go test only waits for it to return, so each client release has its own file.
    { test: 'TestMutexWaitsOnCurrentHolder', file: 'waits-on-current-holder.yaml', profiles: ['v3.5'] },
    {
      test: 'TestMutexWaitsOnCurrentHolder (clientv3 3.4)',
      file: 'waits-on-current-holder.v3.4.yaml',
      profiles: ['v3.4'],
    },
    {
      test: 'BenchmarkMutex4Waiters',
      reason: 'a benchmark of testMutexLock with four waiters: wall-clock speed, which a virtual clock does not have',
    },
    { test: 'TestRWMutexSingleNode', reason: RECIPES },
    { test: 'TestRWMutexMultiNode', reason: RECIPES },
    { test: 'testRWMutex', reason: RECIPES },
  ],
};
