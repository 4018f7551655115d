/** The battery's rows, what each runs and what passing means, and the table it prints. */
import type { DbKind } from './store';

export const ROWS = {
  R1: {
    what: 'SDK fetch (full and 304), fixed 2,000 req/s, 3 organisations × 200 flags',
    pass: 'p99 ≤ 25 ms, 0 errors, RSS growth < 50 MB',
  },
  R2: {
    what: 'events 10,000/s, then 3× for 20 s; two tenants, one flooding (the quiet one alone first)',
    pass: 'every answer 2xx or 429/503 + Retry-After; stored = acked; quiet tenant never 429, its p99 ≤ 50 ms',
  },
  R3: {
    what: 'backends terminated every 500 ms during R1+R2 and dashboard writes',
    pass: 'alive; SDK ≥ 99.9 % 2xx; writes fail fast (503 within 2 s) and succeed ≤ 5 s after the terminations stop; stored = acked',
  },
  R4: {
    what: 'database unreachable (proxy cut)',
    pass: '/readyz 503 ≤ 2 s; SDK from memory; ingestion answers only 503 during the cut; stored = acked',
  },
  R5: { what: 'SIGKILL during R2, restart', pass: '0 acknowledged events lost' },
  S1: {
    what: 'poison input on every SDK route',
    pass: "0 acknowledged-then-dropped; other tenants' events all stored",
  },
  S2: {
    what: 'role × write route × production/non-production, SDK register and settings',
    pass: '0 mismatches with the permission table',
  },
  S3: {
    what: 'login throttling',
    pass: 'owner signs in from another address; known and unknown e-mails answer alike',
  },
} as const;

export type RowId = keyof typeof ROWS;
export const ROW_IDS = Object.keys(ROWS) as RowId[];

export type Verdict = 'pass' | 'FAIL' | 'n/a';
export type Outcome = {
  verdict: Verdict;
  /** The measured figures, each a short phrase. */
  figures: string[];
  /** The same figure for a bare floor measured in the same run, where one makes sense. */
  floor?: string;
  /** Why it failed (or is n/a), briefly. */
  why?: string[];
};
export type RowResult = Outcome & { id: RowId; db: DbKind; seconds: number };

export function verdictOf(checks: Record<string, boolean>): Pick<Outcome, 'verdict' | 'why'> {
  const failed = Object.entries(checks)
    .filter(([, ok]) => !ok)
    .map(([name]) => name);
  return failed.length ? { verdict: 'FAIL', why: failed } : { verdict: 'pass' };
}

const escape = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

export function printTable(results: readonly RowResult[]): void {
  const lines = [
    '| db | row | pass figure | result | figures | floor (same run) | time |',
    '|---|---|---|---|---|---|---|',
    ...results
      .map((r) =>
        [
          r.db,
          `${r.id} ${ROWS[r.id].what}`,
          ROWS[r.id].pass,
          r.verdict === 'FAIL'
            ? `**FAIL**: ${(r.why ?? []).join('; ')}`
            : r.verdict === 'n/a'
              ? `n/a (${(r.why ?? []).join('; ')})`
              : 'pass',
          r.figures.join('; '),
          r.floor ?? '—',
          `${r.seconds.toFixed(0)} s`,
        ]
          .map(escape)
          .join(' | '),
      )
      .map((line) => `| ${line} |`),
  ];
  console.log(`\n${lines.join('\n')}\n`);
}

export const fmt = {
  ms: (value: number) => (Number.isFinite(value) ? `${value.toFixed(value < 10 ? 1 : 0)} ms` : '—'),
  n: (value: number) => value.toLocaleString('en-GB'),
  mb: (value: number) => `${value.toFixed(0)} MB`,
  pct: (value: number) => `${(value * 100).toFixed(value === 1 ? 0 : 3)} %`,
};
