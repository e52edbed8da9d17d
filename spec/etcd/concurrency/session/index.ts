import type { RestatedFile } from '../../restated.js';

const BOTH = ['v3.4', 'v3.5'] as const;

// The file is not on release-3.5 or any v3.5 tag; it is read at etcd main. Its first two tests use only
// what clientv3 3.4.23 and 3.5.33 have (WithLease, WithTTL, Orphan, Done).
export const SESSION: RestatedFile = {
  source: 'tests/integration/clientv3/concurrency/session_test.go@c34dc7ee0048fd2bcc44d50beff002e5e8069b69',
  tests: [
    { test: 'TestSessionOptions', file: 'session-options.yaml', profiles: BOTH },
    { test: 'TestSessionTTLOptions', file: 'session-ttl-options.yaml', profiles: BOTH },
    {
      test: 'TestSessionCtx',
      reason:
        "Session.Ctx() is clientv3 3.6 API, absent from 3.4.23 and 3.5.33; it is cancelled when the session's " +
        'Done closes, which session-options.yaml asserts after Orphan',
    },
  ],
};
