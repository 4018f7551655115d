import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  CHANGE_REQUEST_STATES,
  DEFAULT_APPROVAL_SETTINGS,
  FINAL_CHANGE_REQUEST_STATES,
  REVIEW_DECISIONS,
  approvalSettingsSchema,
  type ApprovalSettings,
} from '../schemas/change-requests';
import { tallyReviews, type RecordedReview } from './approvals';
import { CHANGE_REQUEST_REFUSALS, nextState, type ChangeRequestAction, type RequestFacts } from './states';

const AUTHOR = 'author';
const author = { id: AUTHOR, mayApprove: true, mayAdminister: false };
const reviewer = (id: string) => ({ id, mayApprove: true, mayAdminister: false });
const settings = (changes: Partial<ApprovalSettings> = {}): ApprovalSettings => ({
  ...DEFAULT_APPROVAL_SETTINGS,
  required: true,
  ...changes,
});

/** What the server does after the last approval needed with `autoApply`: the reviewer's apply. */
function autoApplied(
  request: RequestFacts,
  actor: { id: string; mayApprove: boolean; mayAdminister: boolean },
  action: ChangeRequestAction,
  applies: boolean,
  s: ApprovalSettings,
): RequestFacts {
  if (!applies || action.type !== 'review') return request;
  const applied = nextState(request, actor, { type: 'apply', conflict: false }, s);
  expect(applied).toMatchObject({ ok: true, state: 'applied', applies: true });
  return { ...request, state: 'applied' };
}

/** Runs actions from a fresh draft with one change, stopping at the first refusal. */
function play(
  steps: [{ id: string; mayApprove: boolean; mayAdminister: boolean }, ChangeRequestAction][],
  s = settings(),
) {
  let request: RequestFacts = { state: 'draft', authorId: AUTHOR, round: 0, changeCount: 1, reviews: [] };
  const trail: string[] = [];
  for (const [actor, action] of steps) {
    const next = nextState(request, actor, action, s);
    if (!next.ok) {
      trail.push(`refused:${next.refusal}`);
      break;
    }
    trail.push(next.applies ? `${next.state}+apply` : next.state);
    request = {
      ...request,
      state: next.state,
      round: next.round,
      reviews: next.records ? [...request.reviews, next.records] : request.reviews,
    };
    request = autoApplied(request, actor, action, next.applies, s);
  }
  return trail;
}

describe('a change request’s way from draft to applied', () => {
  it('goes draft → in review → approved → applied with the approvals asked for', () => {
    expect(
      play(
        [
          [author, { type: 'submit' }],
          [reviewer('r1'), { type: 'review', decision: 'approve' }],
          [reviewer('r2'), { type: 'review', decision: 'approve' }],
          [author, { type: 'apply', conflict: false }],
        ],
        settings({ minApprovals: 2 }),
      ),
    ).toEqual(['in-review', 'in-review', 'approved', 'applied+apply']);
  });

  it('refuses the author’s own approval unless allowed, and counts it when allowed', () => {
    const steps: Parameters<typeof play>[0] = [
      [author, { type: 'submit' }],
      [author, { type: 'review', decision: 'approve' }],
    ];
    expect(play(steps)).toEqual(['in-review', 'refused:selfApproval']);
    expect(play(steps, settings({ allowSelfApproval: true }))).toEqual(['in-review', 'approved']);
  });

  it('never lets the author reject or send back their own request, even when they may approve', () => {
    for (const decision of ['reject', 'request-changes'] as const) {
      expect(
        play(
          [
            [author, { type: 'submit' }],
            [author, { type: 'review', decision }],
          ],
          settings({ allowSelfApproval: true }),
        ),
      ).toEqual(['in-review', 'refused:ownRequest']);
    }
  });

  it('withdraws approvals when the author edits under review, unless the settings keep them', () => {
    const steps: Parameters<typeof play>[0] = [
      [author, { type: 'submit' }],
      [reviewer('r1'), { type: 'review', decision: 'approve' }],
      [author, { type: 'edit' }],
    ];
    expect(play(steps)).toEqual(['in-review', 'approved', 'in-review']);
    expect(play(steps, settings({ resetApprovalsOnChange: false }))).toEqual([
      'in-review',
      'approved',
      'approved',
    ]);
  });

  it('holds a request whose changes were asked for until the author edits it, and a rejection ends it', () => {
    expect(
      play([
        [author, { type: 'submit' }],
        [reviewer('r1'), { type: 'review', decision: 'request-changes' }],
        [reviewer('r2'), { type: 'review', decision: 'approve' }],
        [author, { type: 'edit' }],
        [reviewer('r1'), { type: 'review', decision: 'approve' }],
        [reviewer('r2'), { type: 'review', decision: 'reject' }],
        [author, { type: 'edit' }],
      ]),
    ).toEqual(['in-review', 'in-review', 'in-review', 'in-review', 'approved', 'rejected', 'refused:closed']);
  });

  it('suspends an apply whose changes no longer start from what is live, and returns it to review once brought up to date', () => {
    expect(
      play([
        [author, { type: 'submit' }],
        [reviewer('r1'), { type: 'review', decision: 'approve' }],
        [reviewer('r1'), { type: 'apply', conflict: true }],
        [author, { type: 'edit' }],
        [reviewer('r1'), { type: 'review', decision: 'approve' }],
        [author, { type: 'apply', conflict: false }],
      ]),
    ).toEqual(['in-review', 'approved', 'suspended', 'in-review', 'approved', 'applied+apply']);
  });

  it('applies on the last approval needed when the settings say so', () => {
    expect(
      play(
        [
          [author, { type: 'submit' }],
          [reviewer('r1'), { type: 'review', decision: 'approve' }],
        ],
        settings({ autoApply: true }),
      ),
    ).toEqual(['in-review', 'approved+apply']);
  });

  it('refuses what is not the actor’s to do, with the sentence for people', () => {
    const stranger = { id: 'x', mayApprove: false, mayAdminister: false };
    const admin = { id: 'admin', mayApprove: true, mayAdminister: true };
    expect(play([[stranger, { type: 'edit' }]])).toEqual(['refused:notAuthor']);
    expect(play([[reviewer('r1'), { type: 'review', decision: 'approve' }]])).toEqual([
      'refused:draftOnlyForAuthor',
    ]);
    expect(
      play([
        [author, { type: 'submit' }],
        [stranger, { type: 'review', decision: 'approve' }],
      ]),
    ).toEqual(['in-review', 'refused:notReviewer']);
    expect(
      play([
        [author, { type: 'submit' }],
        [stranger, { type: 'apply', conflict: false }],
      ]),
    ).toEqual(['in-review', 'refused:notApplier']);
    expect(
      play([
        [author, { type: 'submit' }],
        [author, { type: 'apply', conflict: false }],
      ]),
    ).toEqual(['in-review', 'refused:notApproved']);
    expect(play([[stranger, { type: 'cancel' }]])).toEqual(['refused:notAuthor']);
    expect(play([[admin, { type: 'cancel' }]])).toEqual(['cancelled']);
    const empty = nextState(
      { state: 'draft', authorId: AUTHOR, round: 0, changeCount: 0, reviews: [] },
      author,
      { type: 'submit' },
      settings(),
    );
    expect(empty).toEqual({ ok: false, refusal: 'empty', message: CHANGE_REQUEST_REFUSALS.empty });
  });
});

const actionArb: fc.Arbitrary<ChangeRequestAction> = fc.oneof(
  fc.constant({ type: 'edit' as const }),
  fc.constant({ type: 'submit' as const }),
  fc.constantFrom(...REVIEW_DECISIONS).map((decision) => ({ type: 'review' as const, decision })),
  fc.boolean().map((conflict) => ({ type: 'apply' as const, conflict })),
  fc.constant({ type: 'cancel' as const }),
);
const actorArb = fc.record({
  id: fc.constantFrom(AUTHOR, 'r1', 'r2', 'r3'),
  mayApprove: fc.boolean(),
  mayAdminister: fc.boolean(),
});
const settingsArb = fc.record({
  required: fc.constant(true),
  minApprovals: fc.integer({ min: 1, max: 5 }),
  allowSelfApproval: fc.boolean(),
  resetApprovalsOnChange: fc.boolean(),
  autoApply: fc.boolean(),
});

describe('every sequence of actions', () => {
  it('never leaves a final state, applies only what its approvals allow, and applies at most once', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(actorArb, actionArb), { maxLength: 25 }), settingsArb, (steps, s) => {
        let request: RequestFacts = {
          state: 'draft',
          authorId: AUTHOR,
          round: 0,
          changeCount: 1,
          reviews: [],
        };
        let applied = 0;
        for (const [actor, action] of steps) {
          const before = request;
          const next = nextState(request, actor, action, s);
          if (!next.ok) {
            expect(CHANGE_REQUEST_REFUSALS[next.refusal]).toBe(next.message);
            continue;
          }
          expect(FINAL_CHANGE_REQUEST_STATES).not.toContain(before.state);
          expect(CHANGE_REQUEST_STATES).toContain(next.state);
          request = {
            ...request,
            state: next.state,
            round: next.round,
            reviews: next.records ? [...request.reviews, next.records] : request.reviews,
          };
          if (next.applies) {
            applied += 1;
            const tally = tallyReviews(request.reviews, request, s);
            expect(tally.approved).toBe(true);
            expect(tally.approvals).toBeGreaterThanOrEqual(s.minApprovals);
          }
          if (next.state === 'approved')
            expect(tallyReviews(request.reviews, request, s).approved).toBe(true);
          request = autoApplied(request, actor, action, next.applies, s);
        }
        expect(applied).toBeLessThanOrEqual(1);
      }),
    );
  });
});

describe('counting reviews', () => {
  it('counts each reviewer’s latest decision once, never the author’s unless allowed', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            reviewerId: fc.constantFrom(AUTHOR, 'r1', 'r2'),
            decision: fc.constantFrom(...REVIEW_DECISIONS),
            round: fc.constant(0),
          }),
        ),
        fc.boolean(),
        (reviews: RecordedReview[], allowSelfApproval) => {
          const tally = tallyReviews(
            reviews,
            { authorId: AUTHOR, round: 0 },
            settings({ allowSelfApproval }),
          );
          const latest = new Map(reviews.map((r) => [r.reviewerId, r.decision]));
          const counted = [...latest].filter(
            ([id, decision]) => decision === 'approve' && (allowSelfApproval || id !== AUTHOR),
          );
          expect(tally.approvals).toBe(counted.length);
        },
      ),
    );
  });

  it('takes the approval settings with their defaults and refuses more than five approvals', () => {
    expect(approvalSettingsSchema.parse({ required: true })).toEqual(settings());
    const refused = approvalSettingsSchema.safeParse({ required: true, minApprovals: 6 });
    expect(refused.success).toBe(false);
    expect(refused.error?.issues[0]?.message).toBe('At most 5 approvals may be asked for.');
  });
});
