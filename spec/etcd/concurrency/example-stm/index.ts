import type { RestatedFile } from '../../restated.js';

export const EXAMPLE_STM: RestatedFile = {
  source: 'tests/integration/clientv3/concurrency/example_stm_test.go@v3.5.33',
  tests: [
    {
      test: 'ExampleSTM_apply',
      reason:
        'software transactional memory over plain keys (NewSTM, Get, Put with retried Txns) uses no ' +
        'lease or lock; the model has neither STM nor the multi-key compares it needs',
    },
    {
      test: 'mockSTM_apply',
      reason: 'prints the expected output for unit-test runs without a cluster; it tests nothing itself',
    },
  ],
};
