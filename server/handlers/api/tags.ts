// GET /api/tags[?regex=R] (SPEC §4): every tag alias (those R matches anywhere, when given) in
// the shape qdb_rest answers it, which QuasarDB's Grafana plugin reads for template queries. R
// is a JavaScript regular expression held to what matches in linear time, as the query
// language's `~` is; a pattern that does not compile is a 400 (qdb_rest answers 500).
import { compileQueryRegex } from '../../../engine/index.js';
import { HttpError } from '../../errors.js';
import { tagsAnswer } from '../../protocols/qdb-rest/go-json.js';
import { database } from '../context.js';
import type { Handler } from '../context.js';

export const listTags: Handler = async (ctx) => {
  const regex = ctx.request.query.get('regex');
  let re: RegExp | null = null;
  if (regex !== undefined) {
    try {
      re = compileQueryRegex(regex, false);
    } catch (e) {
      throw new HttpError('BadRequest', `invalid regex '${regex}': ${(e as Error).message}`);
    }
  }
  const tags = database(ctx).findEntries({ withTags: [], withoutTags: [], types: ['tag'] });
  const names = re === null ? tags : tags.filter((t) => re.test(t));
  ctx.reply.send(200, tagsAnswer(names), { 'Content-Type': 'application/json' });
};
