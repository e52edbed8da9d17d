import type { RestatedFile } from '../../restated.js';

export const EXAMPLE_ELECTION: RestatedFile = {
  source: 'tests/integration/clientv3/concurrency/example_election_test.go@v3.5.33',
  tests: [
    { test: 'ExampleElection_Campaign', file: 'campaign.yaml', profiles: ['v3.4', 'v3.5'] },
    {
      test: 'mockElection_Campaign',
      reason: 'prints the expected output for unit-test runs without a cluster; it tests nothing itself',
    },
  ],
};
