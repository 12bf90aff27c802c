// Matching a request path against the route table. Paths are matched still percent-encoded, so an
// alias written with %2F never splits: `:alias` is the rest of the path after the route's prefix,
// minus the route's suffix (`/content`, `/tags`, `/entries`), then percent-decoded as UTF-8. The
// longest matching suffix wins, so `/api/v1/blobs/a/content` is the content of `a`; an alias that
// itself ends in `/content` must encode that slash (`a%2Fcontent`). A known path with a method
// no route serves is a 405 with `Allow`, an unknown path a 404. HEAD runs the GET route (the
// reply then leaves the body out).
import { HttpError } from '../errors.js';
import { percentDecodeText } from './query-params.js';

export interface RoutePattern {
  readonly method: string;
  /** A constant path, or one with a single `:alias` placeholder. */
  readonly path: string;
}

interface Compiled<R> {
  readonly route: R;
  readonly prefix: string;
  /** null for a constant path. */
  readonly suffix: string | null;
  /** Every route of the same path shape (this one included), found once at construction. */
  group: readonly Compiled<R>[];
  /** The Allow header of that shape (HEAD beside GET). */
  allow: string;
}

export interface Match<R> {
  readonly route: R;
  readonly alias: string;
}

export class Router<R extends RoutePattern> {
  private readonly compiled: Compiled<R>[];

  /** `fallback` answers GET/HEAD paths no route has (the assets); its alias is the raw path. */
  constructor(routes: readonly R[], private readonly fallback: R | null = null) {
    this.compiled = routes.map((route) => {
      const at = route.path.indexOf(':alias');
      return at < 0
        ? { route, prefix: route.path, suffix: null, group: [], allow: '' }
        : { route, prefix: route.path.slice(0, at), suffix: route.path.slice(at + ':alias'.length), group: [], allow: '' };
    });
    // Constant paths first, then placeholders by longest suffix: the most specific shape wins.
    const rank = (c: Compiled<R>): number => (c.suffix === null ? Number.MAX_SAFE_INTEGER : c.suffix.length);
    this.compiled.sort((a, b) => rank(b) - rank(a));
    for (const c of this.compiled) {
      c.group = this.compiled.filter((o) => o.prefix === c.prefix && o.suffix === c.suffix);
      const methods = new Set(c.group.map((o) => o.route.method));
      if (methods.has('GET')) methods.add('HEAD');
      c.allow = [...methods].join(', ');
    }
  }

  /** The route for (method, raw path); throws RouteNotFound or MethodNotAllowed. */
  match(method: string, rawPath: string): Match<R> {
    let shape: Compiled<R> | undefined;
    let rawAlias = '';
    for (const c of this.compiled) {
      if (c.suffix === null) {
        if (rawPath === c.prefix) { shape = c; break; }
        continue;
      }
      if (rawPath.length > c.prefix.length + c.suffix.length && rawPath.startsWith(c.prefix) && rawPath.endsWith(c.suffix)) {
        shape = c;
        rawAlias = rawPath.slice(c.prefix.length, rawPath.length - c.suffix.length);
        break;
      }
    }
    if (shape === undefined) {
      if (this.fallback !== null && (method === 'GET' || method === 'HEAD')) return { route: this.fallback, alias: rawPath };
      throw new HttpError('RouteNotFound', `no route for ${rawPath}`);
    }
    const wanted = method === 'HEAD' ? 'GET' : method;
    const hit = shape.group.find((c) => c.route.method === wanted);
    if (hit === undefined) {
      const allow = shape.allow;
      throw new HttpError('MethodNotAllowed', `${method} is not allowed on ${shape.route.path}; allowed: ${allow}`, { Allow: allow });
    }
    const alias = shape.suffix === null ? '' : percentDecodeText(rawAlias, 'the alias in the path');
    return { route: hit.route, alias };
  }
}
