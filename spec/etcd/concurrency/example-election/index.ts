import type { RestatedFile } from '../../restated.js';

export const EXAMPLE_ELECTION: RestatedFile = {
  source: 'tests/integration/clientv3/concurrency/example_election_test.go@v3.5.33',
  tests: [
    {
      test: 'ExampleElection_Campaign',
      reason:
        'concurrency.Election (Campaign, Observe, Resign) is not in the model; a campaign waits as a ' +
        'Mutex Lock does, which the mutex scenarios assert, but its output comes from Observe and Resign',
    },
    {
      test: 'mockElection_Campaign',
      reason: 'prints the expected output for unit-test runs without a cluster; it tests nothing itself',
    },
  ],
};
