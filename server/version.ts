// The package version: `svc_rest --version` and the svcVersion of GET /api/nodes/:id.
import { readFileSync } from 'node:fs';

let version: string | null = null;

export function packageVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}
