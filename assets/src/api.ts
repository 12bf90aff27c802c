// The dashboard's one door to the server: every request carries the session's token, and a 401
// from any route sends the person back to the sign-in screen (the token expired or the server's
// key changed). Errors come back as the server's JSON error body (SPEC §8).
const TOKEN_KEY = 'svc.token';

export interface ApiErrorBody {
  readonly code: number;
  readonly error?: string;
  readonly message: string;
  readonly position?: number;
}

export class ApiError extends Error {
  constructor(readonly status: number, readonly body: ApiErrorBody) {
    super(body.message);
  }
}

let onUnauthorized: (message: string) => void = () => undefined;

/** Registers what happens on a 401 (the app shows the sign-in screen). */
export function setUnauthorizedHandler(fn: (message: string) => void): void {
  onUnauthorized = fn;
}

export function token(): string | null {
  return sessionStorage.getItem(TOKEN_KEY);
}

export function setToken(value: string | null): void {
  if (value === null) sessionStorage.removeItem(TOKEN_KEY);
  else sessionStorage.setItem(TOKEN_KEY, value);
}

/** fetch with the bearer token; non-2xx answers throw ApiError (401 also signs out). */
export async function api(path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers);
  const t = token();
  if (t !== null) headers.set('Authorization', `Bearer ${t}`);
  const res = await fetch(path, { ...init, headers });
  if (res.ok) return res;
  let body: ApiErrorBody;
  try {
    body = (await res.json()) as ApiErrorBody;
  } catch {
    body = { code: res.status, message: `${res.status} ${res.statusText}` };
  }
  if (res.status === 401 && !path.startsWith('/api/login')) {
    setToken(null);
    onUnauthorized(body.message);
  }
  throw new ApiError(res.status, body);
}

export async function apiJson<T>(path: string, init: RequestInit = {}): Promise<T> {
  return (await (await api(path, init)).json()) as T;
}

/** POST /api/login with a key file; keeps the token for this browser tab's session. */
export async function login(username: string, secretKey: string): Promise<void> {
  const { token: t } = await apiJson<{ token: string }>('/api/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ username, secret_key: secretKey }),
  });
  setToken(t);
}

/** An alias as one path segment (aliases may hold `/`). */
export function aliasPath(alias: string): string {
  return encodeURIComponent(alias);
}

/** The query_exp JSON answer (date_format=js), as the browse and help views read it. */
export interface QueryExpAnswer {
  readonly tables: readonly { readonly table_name: string; readonly columns_names: readonly string[]; readonly results: readonly (readonly unknown[])[] }[];
}

/** GET /query_exp for a small read (catalog figures), JSON with ISO times. */
export async function queryExp(query: string): Promise<QueryExpAnswer> {
  return apiJson<QueryExpAnswer>(`/query_exp?date_format=js&query=${encodeURIComponent(query)}`);
}
