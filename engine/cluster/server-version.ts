// svc refuses NATS servers older than 2.10.23: Debian 12's 2.9.10 lost acknowledged messages when
// a server was SIGKILLed and restarted (one replica came back without the head of the stream, and a
// leader change onto it made the loss visible), and has no fsync-before-acknowledge setting.
// 2.10.x with `jetstream { sync_interval: always }` lost nothing in the same runs (issue 18).
import { SvcError } from '../errors.js';

export const MIN_NATS_SERVER = [2, 10, 23] as const;

/** Throws ClusterUnavailable naming both versions when `version` (e.g. "2.9.10") is too old. */
export function checkServerVersion(version: string, server: string): void {
  const parts = /^v?(\d+)\.(\d+)\.(\d+)/.exec(version);
  if (parts === null) throw new SvcError('ClusterUnavailable', `NATS server ${server} reports version '${version}', which svc cannot read`);
  const have = [Number(parts[1]), Number(parts[2]), Number(parts[3])];
  for (let i = 0; i < 3; i++) {
    if (have[i] > MIN_NATS_SERVER[i]) return;
    if (have[i] < MIN_NATS_SERVER[i]) {
      throw new SvcError('ClusterUnavailable', `NATS server ${server} runs nats-server ${version}; svc needs ${MIN_NATS_SERVER.join('.')} or newer (older servers can lose acknowledged writes after a restart)`);
    }
  }
}
