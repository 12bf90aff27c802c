// The options of `svc_rest`: ONE table (name, short flag, environment variable, config key, type,
// default, help) from which parsing, validation, the usage text, `--gen-config` and `-i` are all
// derived. Precedence: command line > environment > config file > defaults; `--local` and
// `--secure` only change the defaults. Every mistake is a ConfigError naming the option, the
// environment variable or the config key (the CLI exits 2).
import { readFileSync } from 'node:fs';
import minimist from 'minimist';
import { defaultMemoryLimit, defaultParallelism, parseBytes } from '../engine/index.js';
import type { Durability } from '../engine/index.js';
import { ConfigError } from './config-error.js';
import { DEFAULT_MAX_IN_BUFFER_SIZE, DEFAULT_PORT, DEFAULT_TLS_PORT } from './start-server.js';
import type { ServerOptions } from './start-server.js';

/** The config file (seed 001 §2 plus SPEC §5's additions); '' means "none" for paths. */
export interface Config {
  allowed_origins: string[];
  cluster_uri: string;
  node_id: string;
  cluster_public_key_file: string;
  users_file: string;
  tls_certificate: string;
  tls_key: string;
  tls_port: number;
  host: string;
  port: number;
  log: string;
  assets: string;
  data_dir: string;
  durability: Durability;
  max_in_buffer_size: number;
  parallelism_count: number;
  memory_limit: number;
  /** null: the default rule (the smaller of 1 GiB and 5 % of the disk). */
  min_free_disk: number | null;
  retention_size: number | null;
  compression: boolean;
  metrics: boolean;
}

/**
 * `switch`: an on/off config key, `--NAME` / `--no-NAME` on the command line. `bytes`: at least
 * 1 MiB; `floor-bytes`: 0 or more, or null (a config file's way to ask for the default rule).
 */
type Kind = 'flag' | 'switch' | 'string' | 'port' | 'positive-integer' | 'durability' | 'origins' | 'bytes' | 'floor-bytes';
interface Mode { readonly local: boolean; readonly secure: boolean }

interface OptionRow {
  readonly name: string;
  readonly short?: string;
  readonly env?: string;
  /** The config file key; command-only flags (help, local, …) have none. */
  readonly key?: keyof Config;
  readonly kind: Kind;
  readonly default?: (mode: Mode) => Config[keyof Config];
  readonly defaultText: string;
  readonly help: string;
}

const isWindows = process.platform === 'win32';
const WIN = 'C:/Program Files/svc';
const secureOr = (path: string, winPath: string) => (m: Mode): string => (m.secure ? (isWindows ? winPath : path) : '');

export const OPTION_TABLE: readonly OptionRow[] = [
  { name: 'help', short: 'h', kind: 'flag', defaultText: '', help: 'show this usage and exit' },
  { name: 'version', kind: 'flag', defaultText: '', help: 'print the version and exit' },
  { name: 'local', short: 'l', kind: 'flag', defaultText: '', help: 'local mode: relative defaults (./data, svc_rest.log, assets)' },
  { name: 'secure', short: 's', kind: 'flag', defaultText: '', help: 'security defaults: TLS plus cluster security (plain HTTP redirects to HTTPS)' },
  { name: 'config-file', kind: 'string', defaultText: '', help: 'JSON configuration file to read (with --gen-config -i: the file to write)' },
  { name: 'gen-config', kind: 'flag', defaultText: '', help: 'print a complete configuration (every key, resolved) and exit' },
  { name: 'interactive', short: 'i', kind: 'flag', defaultText: '', help: 'with --gen-config: ask for each value, then write --config-file' },
  { name: 'allowed-origins', key: 'allowed_origins', kind: 'origins', default: () => [], defaultText: 'none', help: 'origins allowed for cross-origin requests, comma-separated, repeatable; * = any' },
  { name: 'cluster', short: 'c', env: 'SVC_CLUSTER_URI', key: 'cluster_uri', kind: 'string', default: () => 'svc://127.0.0.1:2836', defaultText: 'svc://127.0.0.1:2836', help: 'URI of the cluster: svc://host:port (one node, whose id is host:port) or nats://h1:p1,h2:p2[?groups=N&serve=g,…] (a cluster on NATS JetStream)' },
  { name: 'node-id', env: 'SVC_NODE_ID', key: 'node_id', kind: 'string', default: () => '', defaultText: 'host:port of the server', help: 'this node\'s id in a cluster on NATS JetStream (--cluster nats://…)' },
  { name: 'cluster-public-key-file', env: 'SVC_CLUSTER_PUBLIC_KEY_FILE', key: 'cluster_public_key_file', kind: 'string', default: secureOr('/usr/share/svc/cluster_public.key', `${WIN}/share/cluster_public.key`), defaultText: 'with --secure: /usr/share/svc/cluster_public.key', help: 'cluster public key: turns security on (the users file must carry its signature)' },
  { name: 'users-file', env: 'SVC_USERS_FILE', key: 'users_file', kind: 'string', default: secureOr('/etc/svc/users.json', `${WIN}/conf/users.json`), defaultText: 'with --secure: /etc/svc/users.json', help: 'users and their public keys (written by svc_keygen)' },
  { name: 'tls-certificate', env: 'TLS_CERTIFICATE', key: 'tls_certificate', kind: 'string', default: secureOr('/etc/svc/svc_rest.cert.pem', `${WIN}/conf/svc_rest.cert.pem`), defaultText: 'with --secure: /etc/svc/svc_rest.cert.pem', help: 'PEM certificate for HTTPS' },
  { name: 'tls-key', env: 'TLS_PRIVATE_KEY', key: 'tls_key', kind: 'string', default: secureOr('/etc/svc/svc_rest.key.pem', `${WIN}/conf/svc_rest.key.pem`), defaultText: 'with --secure: /etc/svc/svc_rest.key.pem', help: 'PEM private key of the certificate' },
  { name: 'tls-port', env: 'TLS_PORT', key: 'tls_port', kind: 'port', default: () => DEFAULT_TLS_PORT, defaultText: String(DEFAULT_TLS_PORT), help: 'port for HTTPS (0 picks a free one)' },
  { name: 'host', env: 'HOST', key: 'host', kind: 'string', default: () => 'localhost', defaultText: 'localhost', help: 'IP address or name to listen on' },
  { name: 'port', env: 'PORT', key: 'port', kind: 'port', default: () => DEFAULT_PORT, defaultText: String(DEFAULT_PORT), help: 'port for plain HTTP (0 picks a free one)' },
  { name: 'log-file', env: 'SVC_REST_LOG_FILE', key: 'log', kind: 'string', default: (m) => (m.local ? 'svc_rest.log' : isWindows ? `${WIN}/log/svc_rest.log` : '/var/log/svc/svc_rest.log'), defaultText: 'svc_rest.log with --local, else /var/log/svc/svc_rest.log', help: 'file the JSON log is appended to ("" = stderr only); reopened on SIGHUP' },
  { name: 'assets-dir', env: 'SVC_REST_ASSETS_DIR', key: 'assets', kind: 'string', default: (m) => (m.local ? 'assets' : isWindows ? `${WIN}/assets` : '/var/lib/svc/assets'), defaultText: 'assets with --local, else /var/lib/svc/assets', help: 'directory served at / (the dashboard)' },
  { name: 'data-dir', env: 'SVC_DATA_DIR', key: 'data_dir', kind: 'string', default: (m) => (m.local ? './data' : '/var/lib/svc/data'), defaultText: './data with --local, else /var/lib/svc/data', help: 'directory of the WAL, checkpoints and the token signing key' },
  { name: 'durability', env: 'SVC_DURABILITY', key: 'durability', kind: 'durability', default: () => 'fsync', defaultText: 'fsync', help: 'fsync | os | none: when a write is acknowledged' },
  { name: 'max-in-buffer-size', env: 'SVC_MAX_IN_BUFFER_SIZE', key: 'max_in_buffer_size', kind: 'positive-integer', default: () => DEFAULT_MAX_IN_BUFFER_SIZE, defaultText: String(DEFAULT_MAX_IN_BUFFER_SIZE), help: 'largest request body (and blob), in bytes' },
  { name: 'parallelism-count', env: 'SVC_PARALLELISM_COUNT', key: 'parallelism_count', kind: 'positive-integer', default: () => defaultParallelism(), defaultText: "the machine's cores", help: 'worker threads for scans and ingest parsing (1 keeps everything on the main thread); answered by GET /api/option/parallelism' },
  { name: 'memory-limit', env: 'SVC_MEMORY_LIMIT', key: 'memory_limit', kind: 'bytes', default: () => defaultMemoryLimit(), defaultText: "60 % of the smaller of the machine's memory and its cgroup limit", help: 'memory for table data, tails and blobs, in bytes or like 512MiB, 8GiB (at least 1MiB); data beyond it stays on disk and is read back' },
  { name: 'min-free-disk', env: 'SVC_MIN_FREE_DISK', key: 'min_free_disk', kind: 'floor-bytes', default: () => null, defaultText: '1GiB or 5 % of the disk, the smaller', help: 'free space the data directory\'s disk must keep, in bytes or like 512MiB, 1GiB (0 = none); below it writes that add data are refused (507) until space is freed' },
  { name: 'retention-size', env: 'SVC_RETENTION_SIZE', key: 'retention_size', kind: 'floor-bytes', default: () => null, defaultText: 'none', help: 'table data on disk past which the oldest shards across tables are removed, in bytes or like 500GiB (0 = none)' },
  { name: 'compression', env: 'SVC_COMPRESSION', key: 'compression', kind: 'switch', default: () => true, defaultText: 'on', help: 'encode checkpoint columns with codecs chosen per column (--no-compression writes them as they lie in memory); files written either way open' },
  { name: 'metrics', env: 'SVC_METRICS', key: 'metrics', kind: 'switch', default: () => true, defaultText: 'on', help: 'GET /metrics: Prometheus text of svc itself, no token (--no-metrics turns it off)' },
];

const CONFIG_ROWS = OPTION_TABLE.filter((o): o is OptionRow & { key: keyof Config } => o.key !== undefined);

export type CliCommand =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'gen-config'; readonly config: Config; readonly interactive: boolean; readonly file: string | null; readonly mode: Mode }
  | { readonly kind: 'serve'; readonly config: Config; readonly options: ServerOptions & { host: string } };

/** Kept for callers of the first CLI: a command-line mistake is a ConfigError. */
export { ConfigError as UsageError } from './config-error.js';

export function usage(): string {
  const lines = OPTION_TABLE.map((o) => {
    const name = o.kind === 'switch' ? `[no-]${o.name}` : o.name;
    const flags = `${o.short === undefined ? '    ' : `-${o.short}, `}--${name}${o.kind === 'flag' || o.kind === 'switch' ? '' : ' <value>'}`;
    const extra = [o.defaultText === '' ? '' : `default: ${o.defaultText}`, o.env === undefined ? '' : `env ${o.env}`, o.key === undefined ? '' : `config "${o.key}"`].filter((s) => s !== '').join('; ');
    return `  ${flags.padEnd(36)} ${o.help}${extra === '' ? '' : ` (${extra})`}`;
  });
  return ['usage: svc_rest [options]', '', 'Serves the svc database over HTTP and HTTPS (web bridge, REST API, dashboard).', '',
    'Precedence: command line > environment > --config-file > defaults.', '', 'options:', ...lines, ''].join('\n');
}

/** On Windows the seed writes options with `/` (`/port 80`, `/h`): they become `--port`, `-h`. */
export function windowsArgs(argv: readonly string[]): string[] {
  return argv.map((a) => {
    const m = /^\/([A-Za-z][A-Za-z-]*)(=.*)?$/.exec(a);
    if (m === null) return a;
    const row = OPTION_TABLE.find((o) => o.name === m[1] || o.short === m[1]);
    if (row === undefined) return a;
    return `${row.name === m[1] ? '--' : '-'}${m[1]}${m[2] ?? ''}`;
  });
}

export function parseCli(argv: readonly string[], env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): CliCommand {
  const unknown: string[] = [];
  const words = platform === 'win32' ? windowsArgs(argv) : [...argv];
  const args = minimist(words, {
    boolean: OPTION_TABLE.filter((o) => o.kind === 'flag' || o.kind === 'switch').map((o) => o.name),
    string: OPTION_TABLE.filter((o) => o.kind !== 'flag' && o.kind !== 'switch').map((o) => o.name),
    alias: Object.fromEntries(OPTION_TABLE.filter((o) => o.short !== undefined).map((o) => [o.short, o.name])),
    unknown: (arg) => { unknown.push(arg); return false; },
  });
  if (unknown.length > 0) throw new ConfigError(`unknown option or argument: ${unknown.join(' ')}`, true);
  if (args['help'] === true) return { kind: 'help' };
  if (args['version'] === true) return { kind: 'version' };
  const mode: Mode = { local: args['local'] === true, secure: args['secure'] === true };
  const isGen = args['gen-config'] === true;
  const configFile = single('config-file', args['config-file']);
  if (configFile === '') throw new ConfigError('--config-file needs a value');
  const config = defaults(mode);
  // With --gen-config -i the file is the one to write: a file that is not there yet is fine.
  if (configFile !== undefined) Object.assign(config, readConfigFile(configFile, isGen && args['interactive'] === true));
  for (const row of CONFIG_ROWS) {
    const raw = row.env === undefined ? undefined : env[row.env];
    if (raw === undefined) continue;
    try {
      setValue(config, row, parseText(row, raw, `--${row.name}`));
    } catch (e) {
      throw new ConfigError(`${(e as Error).message} (from the environment variable ${row.env})`);
    }
  }
  for (const row of CONFIG_ROWS) {
    const v: unknown = args[row.name];
    if (v === undefined) continue;
    if (row.kind === 'switch') {
      // minimist sets a boolean it was not given to false: only what argv says counts.
      const given = words.filter((a) => a === `--${row.name}` || a === `--no-${row.name}`);
      if (given.length > 0) setValue(config, row, given.at(-1) === `--${row.name}`);
      continue;
    }
    if (row.kind === 'origins') {
      setValue(config, row, (Array.isArray(v) ? v : [v]).flatMap((s) => parseOrigins(String(s))));
      continue;
    }
    const text = single(row.name, v)!;
    if (text === '') throw new ConfigError(`--${row.name} needs a value`);
    setValue(config, row, parseText(row, text, `--${row.name}`));
  }
  if (isGen) return { kind: 'gen-config', config, interactive: args['interactive'] === true, file: configFile ?? null, mode };
  return { kind: 'serve', config, options: toServerOptions(config) };
}

/** Every config key at its default for this mode, in the table's order. */
export function defaults(mode: Mode): Config {
  return Object.fromEntries(CONFIG_ROWS.map((r) => [r.key, r.default!(mode)])) as unknown as Config;
}

/** What startServer takes; '' paths mean "none". */
export function toServerOptions(c: Config): ServerOptions & { host: string } {
  const orNull = (s: string): string | null => (s === '' ? null : s);
  return {
    host: c.host, port: c.port, dataDir: c.data_dir, durability: c.durability, logFile: orNull(c.log),
    maxInBufferSize: c.max_in_buffer_size, parallelismCount: c.parallelism_count, memoryLimit: c.memory_limit, minFreeDisk: c.min_free_disk ?? undefined,
    retentionSize: c.retention_size ?? undefined, compression: c.compression, assetsDir: orNull(c.assets),
    clusterUri: c.cluster_uri, nodeId: orNull(c.node_id), allowedOrigins: c.allowed_origins, tlsPort: c.tls_port,
    tlsCertificate: orNull(c.tls_certificate), tlsKey: orNull(c.tls_key),
    clusterPublicKeyFile: orNull(c.cluster_public_key_file), usersFile: orNull(c.users_file),
    metrics: c.metrics,
  };
}

/** The --gen-config output: every key, in the table's order, pretty-printed. */
export function formatConfig(c: Config): string {
  return `${JSON.stringify(Object.fromEntries(CONFIG_ROWS.map((r) => [r.key, c[r.key]])), null, 2)}\n`;
}

/** A config file's keys, checked: bad JSON names the line, an unknown key or a wrong type the key. */
export function readConfigFile(file: string, isMissingOk = false): Partial<Config> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    if (isMissingOk && (e as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new ConfigError(`config file ${file}: cannot read it (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  return parseConfig(text, `config file ${file}`);
}

export function parseConfig(text: string, where: string): Partial<Config> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    const m = /position (\d+)/.exec((e as Error).message);
    const at = m === null ? text.length : Number(m[1]);
    const before = text.slice(0, at).split('\n');
    throw new ConfigError(`${where}: invalid JSON at line ${before.length}, column ${before.at(-1)!.length + 1} (${(e as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new ConfigError(`${where}: must be a JSON object of settings`);
  const out: Partial<Config> = {};
  for (const [key, v] of Object.entries(value)) {
    const row = CONFIG_ROWS.find((r) => r.key === key);
    if (row === undefined) throw new ConfigError(`${where}: unknown key "${key}" (known: ${CONFIG_ROWS.map((r) => r.key).join(', ')})`);
    setValue(out, row, checkJson(row, v, `${where}: key "${key}"`));
  }
  return out;
}

/** One value typed at the `-i` prompt ('' keeps the default); throws ConfigError when invalid. */
export function parsePromptValue(key: keyof Config, text: string): Config[keyof Config] {
  const row = CONFIG_ROWS.find((r) => r.key === key)!;
  return row.kind === 'origins' ? parseOrigins(text) : parseText(row, text, `"${key}"`);
}

/** The keys asked by -i, in order, with the text shown in brackets. */
export function promptRows(): readonly { key: keyof Config; help: string }[] {
  return CONFIG_ROWS.map((r) => ({ key: r.key, help: r.help }));
}

export function showValue(v: Config[keyof Config]): string {
  if (v === null) return 'default';
  return Array.isArray(v) ? v.join(',') : String(v);
}

function setValue(c: Partial<Config>, row: OptionRow & { key: keyof Config }, v: Config[keyof Config]): void {
  (c as Record<string, unknown>)[row.key] = v;
}

function single(name: string, v: unknown): string | undefined {
  if (Array.isArray(v)) throw new ConfigError(`--${name} is given more than once`);
  return v === undefined ? undefined : String(v);
}

function parseOrigins(text: string): string[] {
  return text.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

function parseText(row: OptionRow, text: string, where: string): Config[keyof Config] {
  switch (row.kind) {
    case 'port': return integer(where, text, 0, 65535);
    case 'positive-integer': return integer(where, text, 1, row.name === 'parallelism-count' ? 1024 : Number.MAX_SAFE_INTEGER);
    case 'durability': return oneOf(where, text, ['fsync', 'os', 'none'] as const);
    case 'origins': return parseOrigins(text);
    case 'string': return text;
    case 'bytes': return bytes(where, text, MIN_MEMORY_LIMIT);
    case 'floor-bytes': return bytes(where, text, 0);
    case 'switch': {
      const on = ['true', '1', 'on', 'yes'].includes(text.toLowerCase());
      if (!on && !['false', '0', 'off', 'no'].includes(text.toLowerCase())) throw new ConfigError(`${where} must be true or false, got '${text}'`);
      return on;
    }
    case 'flag': throw new Error(`${row.name} is a flag`);
  }
}

/** At least a MiB: Database.open refuses a smaller memory limit. */
const MIN_MEMORY_LIMIT = 1024 * 1024;

function bytes(where: string, text: string, min: number): number {
  const n = parseBytes(text);
  const least = min === MIN_MEMORY_LIMIT ? ' of at least 1MiB' : '';
  if (n === null || n < min) throw new ConfigError(`${where} must be a number of bytes${least}, like 1073741824, 512MiB or 8GiB, got ${JSON.stringify(text)}`);
  return n;
}

function checkJson(row: OptionRow, v: unknown, where: string): Config[keyof Config] {
  switch (row.kind) {
    case 'port':
    case 'positive-integer':
      if (typeof v !== 'number' || !Number.isInteger(v)) throw new ConfigError(`${where} must be an integer, got ${JSON.stringify(v)}`);
      return parseText(row, String(v), where);
    case 'origins':
      if (!Array.isArray(v) || !v.every((s) => typeof s === 'string')) throw new ConfigError(`${where} must be an array of strings, got ${JSON.stringify(v)}`);
      return v as string[];
    case 'durability':
    case 'string':
      if (typeof v !== 'string') throw new ConfigError(`${where} must be a string, got ${JSON.stringify(v)}`);
      return parseText(row, v, where);
    case 'floor-bytes':
    case 'bytes':
      if (v === null && row.kind === 'floor-bytes') return null;
      if (typeof v !== 'string' && !(typeof v === 'number' && Number.isInteger(v))) throw new ConfigError(`${where} must be a number of bytes or a string like "8GiB"${row.kind === 'floor-bytes' ? ' (null: the default)' : ''}, got ${JSON.stringify(v)}`);
      return parseText(row, String(v), where);
    case 'switch':
      if (typeof v !== 'boolean') throw new ConfigError(`${where} must be true or false, got ${JSON.stringify(v)}`);
      return v;
    case 'flag': throw new Error(`${row.name} is a flag`);
  }
}

function integer(where: string, v: string, min: number, max: number): number {
  const n = Number(v);
  if (!/^\d+$/.test(v) || !Number.isSafeInteger(n) || n < min || n > max) throw new ConfigError(`${where} must be an integer from ${min} to ${max}, got '${v}'`);
  return n;
}

function oneOf<T extends string>(where: string, v: string, allowed: readonly T[]): T {
  if (!(allowed as readonly string[]).includes(v)) throw new ConfigError(`${where} must be one of ${allowed.join(', ')}, got '${v}'`);
  return v as T;
}
