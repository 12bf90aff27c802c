// The options of `svc_rest`: one table (name, short flag, environment variable, type, default,
// help) that drives parsing, validation and the usage text. Precedence: command line, then
// environment, then the default. Issue 9 adds the rest of the seed's table (TLS, cluster,
// assets, config file) as rows here.
import minimist from 'minimist';
import { DEFAULT_MAX_IN_BUFFER_SIZE, DEFAULT_PARALLELISM_COUNT, DEFAULT_PORT } from './start-server.js';
import type { ServerOptions } from './start-server.js';

type Kind = 'flag' | 'string' | 'port' | 'positive-integer' | 'durability';

interface OptionRow {
  readonly name: string;
  readonly short?: string;
  readonly env?: string;
  readonly kind: Kind;
  /** Shown in the usage text; the value itself comes from `resolveDefaults`. */
  readonly defaultText: string;
  readonly help: string;
}

export const OPTION_TABLE: readonly OptionRow[] = [
  { name: 'help', short: 'h', kind: 'flag', defaultText: '', help: 'show this usage and exit' },
  { name: 'version', kind: 'flag', defaultText: '', help: 'print the version and exit' },
  { name: 'local', short: 'l', kind: 'flag', defaultText: '', help: 'local mode: data in ./data, log in ./svc_rest.log' },
  { name: 'host', env: 'HOST', kind: 'string', defaultText: 'localhost', help: 'IP address or name to listen on' },
  { name: 'port', env: 'PORT', kind: 'port', defaultText: String(DEFAULT_PORT), help: 'port for plain HTTP (0 picks a free one)' },
  { name: 'data-dir', env: 'SVC_DATA_DIR', kind: 'string', defaultText: './data with --local, else /var/lib/svc/data', help: 'directory of the WAL, checkpoints and the token signing key' },
  { name: 'durability', env: 'SVC_DURABILITY', kind: 'durability', defaultText: 'fsync', help: 'fsync | os | none: when a write is acknowledged' },
  { name: 'log-file', env: 'SVC_REST_LOG_FILE', kind: 'string', defaultText: './svc_rest.log with --local, else none (stderr only)', help: 'file the request log is appended to' },
  { name: 'max-in-buffer-size', env: 'SVC_MAX_IN_BUFFER_SIZE', kind: 'positive-integer', defaultText: String(DEFAULT_MAX_IN_BUFFER_SIZE), help: 'largest request body (and blob), in bytes' },
  { name: 'assets-dir', env: 'SVC_REST_ASSETS_DIR', kind: 'string', defaultText: 'assets with --local, else /var/lib/svc/assets', help: 'directory served at / (the dashboard)' },
  { name: 'parallelism-count', env: 'SVC_PARALLELISM_COUNT', kind: 'positive-integer', defaultText: String(DEFAULT_PARALLELISM_COUNT), help: 'answered by GET /api/option/parallelism' },
];

export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'serve'; readonly options: ServerOptions & { host: string } };

/** A command-line mistake: the CLI prints the message (and the usage) and exits 2. */
export class UsageError extends Error {
  constructor(message: string, readonly showUsage: boolean) {
    super(message);
  }
}

export function usage(): string {
  const lines = OPTION_TABLE.map((o) => {
    const flags = `${o.short === undefined ? '    ' : `-${o.short}, `}--${o.name}${o.kind === 'flag' ? '' : ' <value>'}`;
    const extra = [o.defaultText === '' ? '' : `default: ${o.defaultText}`, o.env === undefined ? '' : `env ${o.env}`].filter((s) => s !== '').join('; ');
    return `  ${flags.padEnd(34)} ${o.help}${extra === '' ? '' : ` (${extra})`}`;
  });
  return ['usage: svc_rest [options]', '', 'Serves the svc database over HTTP (web bridge and REST API).', '', 'options:', ...lines, ''].join('\n');
}

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv): CliCommand {
  const unknown: string[] = [];
  const args = minimist([...argv], {
    boolean: OPTION_TABLE.filter((o) => o.kind === 'flag').map((o) => o.name),
    string: OPTION_TABLE.filter((o) => o.kind !== 'flag').map((o) => o.name),
    alias: Object.fromEntries(OPTION_TABLE.filter((o) => o.short !== undefined).map((o) => [o.short, o.name])),
    unknown: (arg) => { unknown.push(arg); return false; },
  });
  if (unknown.length > 0) throw new UsageError(`unknown option or argument: ${unknown.join(' ')}`, true);
  if (args['help'] === true) return { kind: 'help' };
  if (args['version'] === true) return { kind: 'version' };
  const raw = (name: string): string | undefined => {
    const row = OPTION_TABLE.find((o) => o.name === name)!;
    const v: unknown = args[name];
    if (Array.isArray(v)) throw new UsageError(`--${name} is given more than once`, false);
    if (typeof v === 'string') return v;
    return row.env === undefined ? undefined : env[row.env];
  };
  const isLocal = args['local'] === true;
  const port = raw('port');
  const maxIn = raw('max-in-buffer-size');
  const parallelism = raw('parallelism-count');
  const durability = raw('durability');
  return {
    kind: 'serve',
    options: {
      host: nonEmpty('host', raw('host')) ?? 'localhost',
      port: port === undefined ? DEFAULT_PORT : integer('port', port, 0, 65535),
      dataDir: nonEmpty('data-dir', raw('data-dir')) ?? (isLocal ? './data' : '/var/lib/svc/data'),
      durability: durability === undefined ? 'fsync' : oneOf('durability', durability, ['fsync', 'os', 'none'] as const),
      logFile: nonEmpty('log-file', raw('log-file')) ?? (isLocal ? './svc_rest.log' : null),
      maxInBufferSize: maxIn === undefined ? DEFAULT_MAX_IN_BUFFER_SIZE : integer('max-in-buffer-size', maxIn, 1, Number.MAX_SAFE_INTEGER),
      assetsDir: nonEmpty('assets-dir', raw('assets-dir')) ?? (isLocal ? 'assets' : '/var/lib/svc/assets'),
      parallelismCount: parallelism === undefined ? DEFAULT_PARALLELISM_COUNT : integer('parallelism-count', parallelism, 1, 1024),
    },
  };
}

function nonEmpty(name: string, v: string | undefined): string | undefined {
  if (v === '') throw new UsageError(`--${name} needs a value`, false);
  return v;
}

function integer(name: string, v: string, min: number, max: number): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got '${v}'`, false);
  return n;
}

function oneOf<T extends string>(name: string, v: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(v)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got '${v}'`, false);
  return v as T;
}
