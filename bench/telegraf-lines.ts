// Seeded Telegraf-like line protocol for the ingest benches: every 10 s each host reports cpu
// (cpu-total and two cores: 10 float fields), mem (6 integers, 2 floats), disk (two mounts: 6
// integers, 1 float) and net (two interfaces: 8 integers) — 8 lines per host and interval,
// tagged host, region (and cpu, device/path, interface), floats printed in full precision as
// Telegraf's strconv.FormatFloat(v, 'f', -1, 64) does. Split into requests of `linesPerRequest`.
import { prng } from '../test/prng.js';

export interface TelegrafBody {
  /** The request bodies, each `linesPerRequest` lines (the last may be shorter). */
  readonly requests: readonly Buffer[];
  readonly lines: number;
  /** Field values in all requests (what "field values/s" counts). */
  readonly fieldValues: number;
  readonly bytes: number;
}

const HOSTS = 100;
const REGIONS = ['us-east-1', 'us-west-2', 'eu-west-1', 'ap-south-1'];
const START_NS = 1_700_000_000_000_000_000n;
const INTERVAL_NS = 10_000_000_000n;

/**
 * `lines` (each with its count of field values) as request bodies of `linesPerRequest` lines.
 */
export function requestBodies(lines: Iterable<readonly [line: string, fields: number]>, linesPerRequest = 5_000): TelegrafBody {
  const requests: Buffer[] = [];
  let chunk: string[] = [];
  let count = 0;
  let fieldValues = 0;
  let bytes = 0;
  const flush = () => {
    if (chunk.length === 0) return;
    const body = Buffer.from(`${chunk.join('\n')}\n`);
    bytes += body.length;
    requests.push(body);
    chunk = [];
  };
  for (const [line, fields] of lines) {
    chunk.push(line);
    count++;
    fieldValues += fields;
    if (chunk.length === linesPerRequest) flush();
  }
  flush();
  return { requests, lines: count, fieldValues, bytes };
}

/** `floatDigits`: print floats with at most that many significant digits (the footprint suite: 12, what VictoriaMetrics keeps). */
export function telegrafLines(lineCount: number, linesPerRequest = 5_000, seed = 17, floatDigits: number | null = null): TelegrafBody {
  return requestBodies(telegrafLineItems(lineCount, seed, floatDigits), linesPerRequest);
}

function* telegrafLineItems(lineCount: number, seed: number, floatDigits: number | null): Generator<[string, number]> {
  const random = prng(seed);
  const float = () => (floatDigits === null ? String(random() * 100) : String(Number((random() * 100).toPrecision(floatDigits))));
  const int = (max: number) => `${Math.floor(random() * max)}i`;
  let lines = 0;
  for (let tick = 0n; lines < lineCount; tick++) {
    const ts = String(START_NS + tick * INTERVAL_NS);
    for (let h = 0; h < HOSTS && lines < lineCount; h++) {
      const tags = `host=host-${h},region=${REGIONS[h % REGIONS.length]}`;
      // A host's lines are all sent once the host is started (the count is checked per host).
      const push = function* (line: string, fields: number): Generator<[string, number]> {
        lines++;
        yield [line, fields];
      };
      for (const cpu of ['cpu-total', 'cpu0', 'cpu1']) {
        const f = ['usage_guest', 'usage_guest_nice', 'usage_idle', 'usage_iowait', 'usage_irq', 'usage_nice', 'usage_softirq', 'usage_steal', 'usage_system', 'usage_user'];
        yield* push(`cpu,cpu=${cpu},${tags} ${f.map((k) => `${k}=${float()}`).join(',')} ${ts}`, f.length);
      }
      yield* push(`mem,${tags} active=${int(8e9)},available=${int(16e9)},available_percent=${float()},buffered=${int(1e9)},cached=${int(4e9)},free=${int(8e9)},total=17179869184i,used_percent=${float()} ${ts}`, 8);
      for (const [device, path] of [['sda1', '/'], ['sdb1', '/data']]) {
        yield* push(`disk,device=${device},fstype=ext4,${tags},mode=rw,path=${path} free=${int(5e11)},inodes_free=${int(3e7)},inodes_total=32768000i,inodes_used=${int(3e6)},total=536870912000i,used=${int(5e11)},used_percent=${float()} ${ts}`, 7);
      }
      for (const iface of ['eth0', 'eth1']) {
        yield* push(`net,${tags},interface=${iface} bytes_recv=${int(1e12)},bytes_sent=${int(1e12)},drop_in=${int(100)},drop_out=0i,err_in=0i,err_out=${int(10)},packets_recv=${int(1e9)},packets_sent=${int(1e9)} ${ts}`, 8);
      }
    }
  }
}
