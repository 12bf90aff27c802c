// Paths of bridge resources as they appear in descriptions and redirects: the alias
// percent-encoded whole (a `/` in it becomes %2F), so every link routes back to the same alias.
export const BRIDGE_PREFIX = '/api/v1';

export function blobPath(alias: string, suffix = ''): string {
  return `${BRIDGE_PREFIX}/blobs/${encodeURIComponent(alias)}${suffix}`;
}

export function tagPath(alias: string, suffix = ''): string {
  return `${BRIDGE_PREFIX}/tags/${encodeURIComponent(alias)}${suffix}`;
}

export function entryPath(alias: string, suffix = ''): string {
  return `${BRIDGE_PREFIX}/entries/${encodeURIComponent(alias)}${suffix}`;
}
