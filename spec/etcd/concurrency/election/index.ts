import type { RestatedFile } from '../../restated.js';

export const ELECTION: RestatedFile = {
  source: 'tests/integration/clientv3/concurrency/election_test.go@v3.5.33',
  tests: [
    {
      test: 'TestResumeElection',
      reason:
        'concurrency.Election (Campaign, Leader, ResumeElection, Observe, Resign) is not in the model: ' +
        'Observe streams the leader key of each new term through a prefix watch and Resign rewrites or ' +
        'deletes the candidate key, none of which the Mutex code has; the lease half of it (a session ' +
        'whose key dies with its lease) is what the mutex scenarios assert',
    },
  ],
};
