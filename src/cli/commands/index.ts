/** The command table: one entry per command, in the order `lessor-sim help` lists them. */
import type { Command } from '../command.js';
import { checkCommand } from './check.js';
import { diffCommand } from './diff.js';
import { explainCommand } from './explain.js';
import { metricsCommand } from './metrics.js';
import { playgroundCommand } from './playground.js';
import { renderCommand } from './render.js';
import { runCommand } from './run.js';
import { serveCommand } from './serve.js';
import { traceCommand } from './trace.js';

export const COMMANDS: readonly Command[] = [
  runCommand,
  traceCommand,
  explainCommand,
  renderCommand,
  metricsCommand,
  playgroundCommand,
  checkCommand,
  diffCommand,
  serveCommand,
];
