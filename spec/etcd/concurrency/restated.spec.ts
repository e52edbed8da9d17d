// etcd's concurrency tests restated as scenarios: one folder per etcd test file, each with its index.
// client/v3/concurrency@v3.5.33 has no tests of its own besides these examples (its example_*_test.go are
// links to the files under tests/integration), so the folders below cover it too.
import { restatedSuite } from '../restated.js';
import { ELECTION } from './election/index.js';
import { EXAMPLE_ELECTION } from './example-election/index.js';
import { EXAMPLE_MUTEX } from './example-mutex/index.js';
import { EXAMPLE_STM } from './example-stm/index.js';
import { MUTEX } from './mutex/index.js';
import { SESSION } from './session/index.js';
import { V3_LOCK } from './v3-lock/index.js';

const here = (folder: string): string => new URL(folder, import.meta.url).pathname;

restatedSuite(here('mutex'), MUTEX);
restatedSuite(here('example-mutex'), EXAMPLE_MUTEX);
restatedSuite(here('v3-lock'), V3_LOCK);
restatedSuite(here('session'), SESSION);
restatedSuite(here('election'), ELECTION);
restatedSuite(here('example-election'), EXAMPLE_ELECTION);
restatedSuite(here('example-stm'), EXAMPLE_STM);
