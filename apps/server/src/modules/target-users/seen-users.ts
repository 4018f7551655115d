import { sql, type SQLWrapper } from 'drizzle-orm';
import type { Executor } from '../../db/client';
import { byText, chunkStatements } from '../../db/batches';
import { targetUsers, type TargetUserAttributes } from '../../db/schema/index';

/** A user an SDK evaluated features for, with the attributes it sent. */
export type SeenUser = {
  organisationId: string;
  environmentId: string;
  userKey: string;
  attributes: TargetUserAttributes;
  lastSeenAt: Date;
};

/*
 * The users SDKs have seen, as the SDK API's event ingestion writes them, in the ingestion's own
 * transaction (docs/adr/0019-modules-own-their-tables.md: the target-users module owns the table).
 */

export function upsertUsersStatements(db: Executor, rows: SeenUser[]): SQLWrapper[] {
  rows.sort((a, b) => byText(a.environmentId, b.environmentId) || byText(a.userKey, b.userKey));
  return chunkStatements(rows, (chunk) =>
    db
      .insert(targetUsers)
      .values(chunk)
      .onConflictDoUpdate({
        target: [targetUsers.environmentId, targetUsers.userKey],
        set: { attributes: sql`excluded.attributes`, lastSeenAt: sql`excluded.last_seen_at` },
      }),
  );
}
