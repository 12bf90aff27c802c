#!/usr/bin/env node
// The `svc_rest` command: parse the options, start the server, print one line once it listens,
// and on SIGTERM/SIGINT stop accepting, finish in-flight requests, checkpoint and exit 0.
// Mistakes on the command line exit 2 with a message (and the usage for unknown options).
import { readFileSync } from 'node:fs';
import { parseCli, usage, UsageError } from './options.js';
import type { CliCommand } from './options.js';
import { startServer } from './start-server.js';
import type { RunningServer } from './start-server.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

async function main(): Promise<void> {
  let command: CliCommand;
  try {
    command = parseCli(process.argv.slice(2), process.env);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    process.stderr.write(`svc_rest: ${e.message}\n${e.showUsage ? `\n${usage()}` : ''}`);
    process.exit(2);
  }
  if (command.kind === 'help') { process.stdout.write(usage()); return; }
  if (command.kind === 'version') { process.stdout.write(`svc_rest ${version()}\n`); return; }
  const { options } = command;
  // Signals are handled from the start: one that arrives while the database is still recovering
  // closes the server as soon as it is up.
  let stopRequested: string | null = null;
  let stopNow: ((signal: string) => void) | null = null;
  const onSignal = (signal: string): void => {
    if (stopRequested !== null) return;
    stopRequested = signal;
    stopNow?.(signal);
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  let server: RunningServer;
  try {
    server = await startServer(options);
  } catch (e) {
    process.stderr.write(`svc_rest: cannot start: ${(e as Error).message}\n`);
    process.exit(1);
  }
  stopNow = (signal) => {
    process.stderr.write(`svc_rest: ${signal}: finishing in-flight requests, then checkpoint\n`);
    server.close().then(() => process.exit(0), (e: unknown) => {
      process.stderr.write(`svc_rest: close failed: ${(e as Error).message}\n`);
      process.exit(1);
    });
  };
  if (stopRequested !== null) {
    stopNow(stopRequested);
    return;
  }
  process.stdout.write(`svc_rest listening on http://${options.host}:${server.port}\n`);
}

void main();
