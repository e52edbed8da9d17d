#!/usr/bin/env node
// lessor-sim's command-line entry: the only place that touches the real process (argv, exit code);
// everything it runs is deterministic.
import { cli } from './cli.js';
import { processIO } from './process-io.js';
import { packageVersion } from './version.js';

process.exitCode = await cli(process.argv.slice(2), processIO(), { version: packageVersion() });
