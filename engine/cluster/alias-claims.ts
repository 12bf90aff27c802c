// The alias namespace in the catalog bucket (JetStream KV), changed by compare-and-set: before a
// record that creates an entry is appended, its alias is claimed with a create (which fails when
// the key exists), so two nodes creating the same alias at once cannot both succeed; a removal
// deletes the claim once the removal is acknowledged. A claim left by a node that died between
// claiming and appending names an alias no node holds: after STALE_CLAIM_MS it is taken over with
// an update on the revision read (compare-and-set again, so only one taker wins).
import type { KV } from '@nats-io/kv';
import type { EntryType } from '../catalog/entry-store.js';
import { SvcError } from '../errors.js';

const STALE_CLAIM_MS = 30_000;

interface Claim {
  readonly type: EntryType;
  readonly node: string;
  readonly at: number;
}

export function claimKey(alias: string): string {
  return `alias.${Buffer.from(alias, 'utf8').toString('base64url') || '_'}`;
}

export class AliasClaims {
  constructor(private readonly kv: KV, private readonly nodeId: string) {}

  /**
   * Claims `alias` for an entry of `type`. `existing` is the alias's type in this node's applied
   * state (after the read barrier): an alias already held as the same kind of entry needs no claim
   * where the operation is not a create (a blob replaced, a tag attached again).
   */
  async claim(alias: string, type: EntryType, isCreate: boolean, existing: EntryType | null): Promise<void> {
    if (existing !== null && !isCreate && existing === type) return;
    const key = claimKey(alias);
    const value = JSON.stringify({ type, node: this.nodeId, at: Date.now() } satisfies Claim);
    for (let attempt = 0; attempt < 5; attempt++) {
      try {
        await this.kv.create(key, value);
        return;
      } catch (e) {
        if (!/wrong last sequence|key exists/i.test((e as Error).message)) throw unavailable(e);
      }
      const held = await this.kv.get(key).catch((e: unknown) => { throw unavailable(e); });
      if (held === null || held.operation !== 'PUT') continue; // released meanwhile: create again
      const claim = held.json<Claim>();
      if (existing === null && Date.now() - claim.at > STALE_CLAIM_MS) {
        try {
          await this.kv.update(key, value, held.revision);
          return;
        } catch {
          continue; // another node took it over first
        }
      }
      if (!isCreate && claim.type === type) return;
      if (isCreate) throw new SvcError('AliasAlreadyExists', `alias '${alias}' already exists`);
      throw new SvcError('IncompatibleType', `alias '${alias}' is a ${claim.type}, not a ${type}`);
    }
    throw new SvcError('ClusterUnavailable', `alias '${alias}' could not be claimed: it kept changing hands`);
  }

  /** Gives the alias back (after its removal was acknowledged). */
  async release(alias: string): Promise<void> {
    await this.kv.delete(claimKey(alias)).catch(() => undefined);
  }
}

function unavailable(e: unknown): SvcError {
  return new SvcError('ClusterUnavailable', `the cluster catalog did not answer: ${(e as Error).message}`, { cause: e });
}
