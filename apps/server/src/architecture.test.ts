import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * Who writes each table (docs/adr/0019-modules-own-their-tables.md): the one module whose files may
 * insert into, update or delete from it. Every other module asks that module's service (or the
 * writer it exports for the caller's transaction). `sdk` is the SDK surface's event ingestion
 * (src/sdk/), `db` the shared counters of src/db/.
 */
export const TABLE_OWNERS: Record<string, string> = {
  organisations: 'organisations',
  users: 'members',
  invites: 'members',
  member_identities: 'members',
  member_removals: 'members',
  sessions: 'auth',
  one_time_tokens: 'auth',
  signups: 'signup',
  roles: 'roles',
  user_roles: 'roles',
  personal_access_tokens: 'tokens',
  projects: 'projects',
  environments: 'environments',
  features: 'features',
  variants: 'features',
  bookmarks: 'features',
  feature_issue_links: 'features',
  feature_goals: 'features',
  feature_controls: 'controls',
  targets: 'targets',
  segments: 'segments',
  target_users: 'target-users',
  goals: 'experiments',
  experiments: 'experiments',
  audit_items: 'audit',
  products: 'billing',
  prices: 'billing',
  subscriptions: 'subscriptions',
  billing_events: 'billing',
  integrations: 'integrations',
  integration_states: 'integrations',
  webhooks: 'integrations',
  webhook_deliveries: 'integrations',
  sso_connections: 'sso',
  sso_attempts: 'sso',
  impression_counters: 'sdk',
  experiment_exposures: 'sdk',
  ramp_exposures: 'sdk',
  target_values: 'sdk',
  throttle_counters: 'db',
  versions: 'versions',
  jobs: 'queue',
  job_attempts: 'queue',
  approval_settings: 'change-requests',
  change_requests: 'change-requests',
  change_request_changes: 'change-requests',
  change_request_events: 'change-requests',
  schedules: 'schedules',
  schedule_events: 'schedules',
  ramp_alerts: 'guards',
};

const src = path.dirname(fileURLToPath(import.meta.url));

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(full);
    return entry.name.endsWith('.ts') &&
      !entry.name.endsWith('.test.ts') &&
      !entry.name.endsWith('.fixture.ts')
      ? [full]
      : [];
  });
}

/** The schema's tables: the name the code imports, and the table's own name. */
function schemaTables(): Map<string, string> {
  const tables = new Map<string, string>();
  const schemaDir = path.join(src, 'db/schema');
  for (const file of readdirSync(schemaDir)) {
    const text = readFileSync(path.join(schemaDir, file), 'utf8');
    for (const match of text.matchAll(/export const (\w+) = pgTable\(\s*'([a-z_]+)'/g))
      tables.set(match[1]!, match[2]!);
  }
  return tables;
}

/** The module a file belongs to: its folder under modules/, else its folder under src (sdk, db…) or its name. */
function moduleOf(file: string): string {
  const relative = path.relative(src, file).split(path.sep);
  return relative[0] === 'modules' ? relative[1]! : relative[0]!;
}

/** Writes outside the modules' own code: the demo data that `npm run seed` and the tests start from. */
const NOT_MODULE_CODE = new Set(['seed.ts']);

type Write = { table: string; module: string; file: string; line: number };

/** Every `.insert(t)`, `.update(t)`, `.delete(t)` and raw `insert into ${t}`, `update ${t}`, `delete from ${t}`. */
function writes(): Write[] {
  const tables = schemaTables();
  const found: Write[] = [];
  const pattern =
    /\.(?:insert|update|delete)\(\s*(?:schema\.)?(\w+)\s*\)|\b(?:insert\s+into|update|delete\s+from)\s+\$\{\s*(?:schema\.)?(\w+)\s*\}/gi;
  for (const file of sourceFiles(src)) {
    if (NOT_MODULE_CODE.has(path.relative(src, file))) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(pattern)) {
      const table = tables.get(match[1] ?? match[2]!);
      if (!table) continue;
      const line = text.slice(0, match.index).split('\n').length;
      found.push({ table, module: moduleOf(file), file: path.relative(src, file), line });
    }
  }
  return found;
}

describe('table ownership', () => {
  it('names an owner for every table of the schema', () => {
    const unowned = [...schemaTables().values()].filter((table) => !TABLE_OWNERS[table]);
    expect(unowned).toEqual([]);
  });

  it('finds the writes it checks (the scan reads the code)', () => {
    const tables = new Set(writes().map((write) => write.table));
    expect(tables).toContain('users');
    expect(tables).toContain('feature_controls');
  });

  it('writes each table only from the module that owns it', () => {
    const strangers = writes()
      .filter((write) => TABLE_OWNERS[write.table] !== write.module)
      .map(
        (write) => `${write.file}:${write.line} writes ${write.table}, owned by ${TABLE_OWNERS[write.table]}`,
      );
    expect(strangers).toEqual([]);
  });
});
