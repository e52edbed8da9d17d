// A stand-alone `diff` for the interrupt test: runs runDiff on argv in its own process, so the test
// can SIGINT it mid-run and check that it left no etcd and no data directory behind.
import { runDiff } from '../../src/real-etcd/index.js';

process.exitCode = await runDiff(process.argv.slice(2), { out: (l) => console.log(l), err: (l) => console.error(l) });
