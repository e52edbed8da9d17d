import type { RestatedFile } from '../../restated.js';

export const EXAMPLE_MUTEX: RestatedFile = {
  source: 'tests/integration/clientv3/concurrency/example_mutex_test.go@v3.5.33',
  tests: [
    // TryLock came with clientv3 3.5.
    { test: 'ExampleMutex_TryLock', file: 'trylock.yaml', profiles: ['v3.5'] },
    { test: 'ExampleMutex_Lock', file: 'lock.yaml', profiles: ['v3.4', 'v3.5'] },
    {
      test: 'mockMutex_TryLock',
      reason: 'prints the expected output for unit-test runs without a cluster; it tests nothing itself',
    },
    {
      test: 'mockMutex_Lock',
      reason: 'prints the expected output for unit-test runs without a cluster; it tests nothing itself',
    },
  ],
};
