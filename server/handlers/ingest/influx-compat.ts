// The InfluxDB and QuestDB routes clients call before they write (SPEC §11): `/ping` (204 and the
// InfluxDB version header — the influx CLI and Telegraf check it), `/health` (InfluxDB 1.8's
// answer), `/settings` (QuestDB's, whose clients read `line.proto.support.versions` to pick the
// protocol) and `/query` for the two statements write-only clients send: `CREATE DATABASE`
// (svc has one database: a no-op) and `SHOW DATABASES`. Any other InfluxQL is a 400 naming
// POST /api/query, where svc's own language answers queries.
import { HttpError } from '../../errors.js';
import { notReadyReason } from '../api/status.js';
import { jsonBody } from '../request-input.js';
import type { Handler, RouteContext } from '../context.js';

/** The InfluxDB API level svc answers as (1.x write, ping and query routes). */
const INFLUXDB_COMPAT_VERSION = '1.8.10';
/** The one database `SHOW DATABASES` lists (every `db` / `bucket` writes to the same tables). */
const DATABASE_NAME = 'svc';

export const ping: Handler = (ctx) => ctx.reply.empty(204, {
  'X-Influxdb-Version': INFLUXDB_COMPAT_VERSION,
  'X-Influxdb-Build': 'OSS',
  'X-Svc-Version': ctx.state.settings.svcVersion,
});

export const health: Handler = (ctx) => {
  const why = notReadyReason(ctx.state);
  return ctx.reply.json(why === null ? 200 : 503, {
    name: 'svc',
    message: why === null ? 'ready for queries and writes' : `not ready: ${why}`,
    status: why === null ? 'pass' : 'fail',
    checks: [],
    version: ctx.state.settings.svcVersion,
  });
};

export const questdbSettings: Handler = (ctx) => ctx.reply.json(200, {
  config: { 'release.type': 'OSS', 'release.version': ctx.state.settings.svcVersion, 'line.proto.support.versions': [1], 'ilp.proto.transports': ['http'] },
  'preferences.version': 0,
  preferences: {},
});

const CREATE_DATABASE = /^\s*create\s+database\s+("(?:[^"\\]|\\.)+"|[^\s;]+)(\s+with\s[^;]*)?\s*$/i;
const SHOW_DATABASES = /^\s*show\s+databases\s*$/i;

/** GET or POST /query: `q` from the URL or an urlencoded form body, `;`-separated statements. */
export const influxQuery: Handler = async (ctx) => {
  const q = await statementText(ctx);
  const statements = q.split(';').filter((s) => s.trim() !== '');
  if (statements.length === 0) throw new HttpError('BadRequest', 'missing parameter q (an InfluxQL statement)');
  const results = statements.map((text, i) => {
    if (CREATE_DATABASE.test(text)) return { statement_id: i };
    if (SHOW_DATABASES.test(text)) return { statement_id: i, series: [{ name: 'databases', columns: ['name'], values: [[DATABASE_NAME]] }] };
    throw new HttpError('BadRequest', `svc answers only CREATE DATABASE and SHOW DATABASES on /query; send queries in svc's language to POST /api/query (statement ${i + 1}: ${text.trim().slice(0, 100)})`);
  });
  return ctx.reply.json(200, { results });
};

async function statementText(ctx: RouteContext): Promise<string> {
  const fromUrl = ctx.request.query.get('q');
  if (fromUrl !== undefined) return fromUrl;
  const body = await ctx.body();
  if (body.length === 0) return '';
  const text = body.toString('utf8');
  // InfluxDB clients post `q=…` as a form; a JSON {"q": …} is taken too.
  if (text.trimStart().startsWith('{')) {
    const json = jsonBody(body);
    return typeof json === 'object' && json !== null && typeof (json as { q?: unknown }).q === 'string' ? (json as { q: string }).q : '';
  }
  return new URLSearchParams(text).get('q') ?? '';
}
