import type { RestatedFile } from '../../restated.js';

export const ELECTION: RestatedFile = {
  source: 'tests/integration/clientv3/concurrency/election_test.go@v3.5.33',
  tests: [{ test: 'TestResumeElection', file: 'resume-election.yaml', profiles: ['v3.4', 'v3.5'] }],
};
