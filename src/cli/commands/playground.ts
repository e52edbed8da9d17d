import { bool, str, type Command } from '../command.js';
import { intFlag } from '../int-flag.js';
import { join } from 'node:path';
import { checkOutputDir, refuseInputAsOutput } from '../output-path.js';
import { loadAll } from './scenario-flags.js';

export const playgroundCommand: Command = {
  name: 'playground',
  summary: 'the lease playground in the browser: the simulation live, faults to click, time to scrub',
  args: '[FILE]',
  positionals: { min: 0, max: 1 },
  flags: {
    port: { type: 'string', value: 'N', help: 'serve on 127.0.0.1:N (default: a free port)' },
    open: { type: 'boolean', help: 'open the page in a browser' },
    build: {
      type: 'string',
      value: 'DIR',
      help: 'write the page as DIR/index.html for any web host, instead of serving it',
    },
  },
  details: [
    'The simulation runs in the page (no server-side simulation, no network after load). FILE opens first;',
    "the library's scenarios are the lessons. The server runs until interrupted.",
  ].join('\n'),
  run: async (inv) => {
    const portText = str(inv, 'port');
    const port = portText === undefined ? 0 : intFlag('--port', portText, 0, 65535);
    const build = str(inv, 'build');
    const file = inv.positionals[0];
    if (build !== undefined) {
      checkOutputDir('--build', build);
      refuseInputAsOutput('--build', join(build, 'index.html'), inv.positionals);
    }
    if (file !== undefined) loadAll([file]);
    const { runPlayground } = await import('../../playground-app/command.js');
    return runPlayground(file, { port, open: bool(inv, 'open'), build }, inv.io);
  },
};
