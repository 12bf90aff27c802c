#!/usr/bin/env node
// The `svc_rest` command: parse the options (options.ts), then either print the usage, the
// version or a configuration (--gen-config, -i to ask each value), or start the server, print one
// line per listening address once it is ready, reopen the log file on SIGHUP, and on
// SIGTERM/SIGINT stop accepting, finish in-flight requests, checkpoint and exit 0.
// Configuration mistakes (options, config file, certificate, keys) exit 2 with a message.
// `svc_rest backup …` is its own command (backup-command.ts).
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { ConfigError } from './config-error.js';
import { formatConfig, parseCli, parsePromptValue, promptRows, showValue, usage } from './options.js';
import type { CliCommand, Config } from './options.js';
import { startServer } from './start-server.js';
import type { RunningServer } from './start-server.js';
import { packageVersion } from './version.js';
import { backupCommand } from './backup-command.js';

/** The file `--gen-config -i` writes when no --config-file names one. */
const DEFAULT_CONFIG_FILE = 'svc_rest.json';

function configMistake(e: unknown): never {
  if (!(e instanceof ConfigError)) throw e;
  process.stderr.write(`svc_rest: ${e.message}\n${e.showUsage ? `\n${usage()}` : ''}`);
  process.exit(2);
}

/**
 * Asks each key on the terminal (prompt on stderr, `key (help) [default]: `), reading answers line
 * by line from stdin (a pipe works too); an empty answer keeps the default, `-` empties a path or
 * list, a bad answer is asked again.
 */
async function interactive(config: Config): Promise<Config> {
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  const out = { ...config };
  try {
    for (const row of promptRows()) {
      for (;;) {
        process.stderr.write(`${row.key} (${row.help}) [${showValue(out[row.key])}]: `);
        const next = await lines.next();
        if (next.done === true) throw new ConfigError(`stdin ended before "${row.key}" was answered`);
        const text = (next.value as string).trim();
        if (text === '') break;
        // '-' empties a path or the origin list (e.g. no TLS although --secure proposed files).
        const current = out[row.key];
        if (text === '-' && (typeof current === 'string' || Array.isArray(current))) {
          (out as Record<string, unknown>)[row.key] = Array.isArray(current) ? [] : '';
          break;
        }
        try {
          (out as Record<string, unknown>)[row.key] = parsePromptValue(row.key, text);
          break;
        } catch (e) {
          if (!(e instanceof ConfigError)) throw e;
          process.stderr.write(`  ${e.message}\n`);
        }
      }
    }
  } finally {
    rl.close();
  }
  return out;
}

async function main(): Promise<void> {
  if (process.argv[2] === 'backup') process.exit(await backupCommand(process.argv.slice(3), process.env));
  let command: CliCommand;
  try {
    command = parseCli(process.argv.slice(2), process.env);
  } catch (e) {
    configMistake(e);
  }
  if (command.kind === 'help') { process.stdout.write(usage()); return; }
  if (command.kind === 'version') { process.stdout.write(`svc_rest ${packageVersion()}\n`); return; }
  if (command.kind === 'gen-config') {
    if (!command.interactive) { process.stdout.write(formatConfig(command.config)); return; }
    const file = command.file ?? DEFAULT_CONFIG_FILE;
    try {
      const config = await interactive(command.config);
      writeFileSync(file, formatConfig(config));
    } catch (e) {
      configMistake(e);
    }
    process.stdout.write(`svc_rest: wrote ${file}\n`);
    return;
  }
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
  let server: RunningServer | null = null;
  process.on('SIGHUP', () => server?.reopenLog());
  try {
    server = await startServer(options);
  } catch (e) {
    if (e instanceof ConfigError) configMistake(e);
    process.stderr.write(`svc_rest: cannot start: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const running = server;
  stopNow = (signal) => {
    process.stderr.write(`svc_rest: ${signal}: finishing in-flight requests, then checkpoint\n`);
    running.close().then(() => process.exit(0), (e: unknown) => {
      process.stderr.write(`svc_rest: close failed: ${(e as Error).message}\n`);
      process.exit(1);
    });
  };
  if (stopRequested !== null) {
    stopNow(stopRequested);
    return;
  }
  // The HTTPS line first: a reader waiting for the http line then has both.
  if (running.tlsPort !== null) process.stdout.write(`svc_rest listening on https://${options.host}:${running.tlsPort}\n`);
  process.stdout.write(`svc_rest listening on http://${options.host}:${running.port}\n`);
}

void main();
