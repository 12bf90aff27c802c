// The assets directory (the dashboard) served for GET/HEAD paths no route claims: Content-Type
// from the file extension (`mime`), a strong ETag from the content so a browser revalidates with
// If-None-Match and gets a 304, gzip through the reply when the type is worth compressing. A path
// that could leave the directory (`..`, `.`, `%2e%2e`, backslashes, `//`, NUL, control
// characters) is refused with a 400 before the file system is asked; a path that resolves (through
// a symlink) outside the directory is a 404 like any missing file.
import { createHash } from 'node:crypto';
import { readFile, realpath, stat } from 'node:fs/promises';
import { resolve, sep } from 'node:path';
import mime from 'mime';
import { HttpError } from '../errors.js';
import type { RouteContext } from '../handlers/context.js';

/** One file's bytes and validator, kept while its size and mtime stay the same. */
interface CachedAsset {
  readonly size: number;
  readonly mtimeMs: number;
  readonly bytes: Buffer;
  readonly etag: string;
}

const cache = new Map<string, CachedAsset>();
/** Files bigger than this are read each time rather than kept in memory. */
const CACHE_LIMIT = 8 * 1024 * 1024;

/**
 * The relative file path a request path names inside the assets directory ('index.html' for a
 * path ending in `/`), or throws BadRequest for a path that tries to leave it.
 * @example assetPath('/dist/app.js') // 'dist/app.js'
 */
export function assetPath(rawPath: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPath);
  } catch {
    throw new HttpError('BadRequest', 'the path is not valid percent-encoded UTF-8');
  }
  // Control characters (NUL first of all) never name a file we publish.
  if (/[\u0000-\u001f\u007f\\]/.test(decoded)) throw new HttpError('BadRequest', 'the path contains a control character or a backslash');
  if (!decoded.startsWith('/')) throw new HttpError('BadRequest', 'the path must start with /');
  const segments = decoded.slice(1).split('/');
  const last = segments.length - 1;
  for (let i = 0; i < segments.length; i++) {
    const s = segments[i]!;
    // An empty segment other than the trailing one is `//`: an absolute path in disguise.
    if ((s === '' && i !== last) || s === '.' || s === '..') throw new HttpError('BadRequest', `the path may not contain '${s === '' ? '//' : s}' segments`);
  }
  if (segments[last] === '') segments[last] = 'index.html';
  return segments.join('/');
}

/** Serves one file of `root`; a missing file (or one outside `root`) is a 404. */
export async function serveAsset(ctx: RouteContext, root: string | null): Promise<void> {
  // /api is the API's namespace: an unknown path there is an unknown route, never a file.
  if (ctx.request.path === '/api' || ctx.request.path.startsWith('/api/')) throw new HttpError('RouteNotFound', `no route for ${ctx.request.path}`);
  const rel = assetPath(ctx.request.path);
  if (root === null) throw new HttpError('RouteNotFound', `no route for ${ctx.request.path} (no assets directory configured)`);
  const asset = await load(root, rel);
  if (asset === null) throw new HttpError('RouteNotFound', `no route or asset for ${ctx.request.path}`);
  const type = contentType(rel);
  const headers = { ETag: asset.etag, 'Cache-Control': 'no-cache' };
  if (matchesEtag(ctx.request.ifNoneMatch, asset.etag)) return ctx.reply.empty(304, headers);
  if (!isCompressible(type)) ctx.reply.compress = 'never';
  return ctx.reply.send(200, asset.bytes, { 'Content-Type': type, ...headers });
}

async function load(root: string, rel: string): Promise<CachedAsset | null> {
  const base = resolve(root);
  const full = resolve(base, rel);
  if (!full.startsWith(base + sep)) return null;
  let real: string;
  let realBase: string;
  try {
    [real, realBase] = await Promise.all([realpath(full), realpath(base)]);
  } catch {
    return null;
  }
  if (!real.startsWith(realBase + sep)) return null;
  const st = await stat(real).catch(() => null);
  if (st === null || !st.isFile()) return null;
  const hit = cache.get(real);
  if (hit !== undefined && hit.size === st.size && hit.mtimeMs === st.mtimeMs) return hit;
  const bytes = await readFile(real);
  const etag = `"${createHash('sha256').update(bytes).digest('base64url').slice(0, 27)}"`;
  const asset = { size: st.size, mtimeMs: st.mtimeMs, bytes, etag };
  if (bytes.length <= CACHE_LIMIT) cache.set(real, asset);
  return asset;
}

function contentType(rel: string): string {
  const type = mime.getType(rel) ?? 'application/octet-stream';
  return type.startsWith('text/') || type === 'application/javascript' || type === 'application/json' || type === 'image/svg+xml'
    ? `${type}; charset=utf-8`
    : type;
}

/** If-None-Match: a list of (possibly weak) tags or `*`; weak comparison, as RFC 9110 asks for it. */
export function matchesEtag(ifNoneMatch: string, etag: string): boolean {
  if (ifNoneMatch === '') return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}

function isCompressible(type: string): boolean {
  return type.startsWith('text/') || /javascript|json|svg|xml|wasm/.test(type);
}
