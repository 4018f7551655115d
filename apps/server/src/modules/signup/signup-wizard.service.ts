import { randomInt, timingSafeEqual } from 'node:crypto';
import {
  AUTHORITIES,
  DOMAIN_UNAVAILABLE_MESSAGE,
  PIN_MESSAGE,
  SIGNUP_COMPLETION_MINUTES,
  SIGNUP_PIN_LENGTH,
  SIGNUP_PIN_LIFETIME_MINUTES,
  SIGNUP_PIN_TRIES,
  domainSuggestions,
  isReservedOrganisationDomain,
  organisationLoginLink,
  type CheckDomainResponse,
  type CreateAccountInput,
  type CreateAccountResponse,
  type RegisterEmailInput,
  type RegisterEmailResponse,
  type ValidatePinInput,
} from '@vexil/core';
import type { Database } from '../../db/client';
import { BadRequestError, ValidationError } from '../../errors';
import { hashPassword, type HashCost } from '../../lib/passwords';
import { hashToken, newSecretToken } from '../../lib/tokens';
import type { AuditService } from '../audit/audit.service';
import type { AuthService, Principal } from '../auth/auth.service';
import type { BillingService } from '../billing/billing.service';
import type { MembersService } from '../members/members.service';
import type { OrganisationsService } from '../organisations/organisations.service';
import type { ProjectsService } from '../projects/projects.service';
import { createAddressLimit } from '../../lib/mail-limits';
import type { MailQueue } from '../mail/mail-queue';
import { signupAudit } from './signup-audit';
import { signupPinMail, welcomeMail } from './signup-mails';
import * as repo from './signup-wizard.repository';

/** `once` values: 256 random bits after a prefix that says what they are. */
const ONCE_PREFIX = 'vxu_';
const MINUTE_MS = 60 * 1000;
/** Pin e-mails one address may be sent per hour. */
const PINS_PER_ADDRESS_PER_HOUR = 5;
/** The project every new organisation starts with (docs/product.md §4 Signup wizard). */
export const FIRST_PROJECT = { name: 'First Project', key: 'first' } as const;

/** Shown under the pin message when the pin can no longer work, whatever the reason. */
export const PIN_DEAD_DETAIL =
  'This pin can no longer be used: it has expired, was used, or was entered wrongly too many times. Ask for a new pin.';
/** createaccount with a sign-up that was never confirmed, already used, or too old. */
export const SIGNUP_DEAD_DETAIL =
  'This sign-up is no longer valid: it was not confirmed with its pin, was already used, or is too old. Start again.';

function pinError(detail?: string) {
  return new BadRequestError(PIN_MESSAGE, [{ field: 'pin', message: PIN_MESSAGE }], detail);
}

/**
 * The pin is stored only hashed together with its `once`, which is itself stored only as SHA-256:
 * without the 256-bit `once` the hash cannot be tried against the million possible pins.
 */
function pinHashOf(once: string, pin: string): string {
  return hashToken(`${once}:${pin}`);
}

function pinMatches(signup: repo.SignupRecord, once: string, pin: string): boolean {
  const expected = Buffer.from(signup.pinHash, 'hex');
  const given = Buffer.from(pinHashOf(once, pin), 'hex');
  return expected.length === given.length && timingSafeEqual(expected, given);
}

function newPin(): string {
  return String(randomInt(0, 10 ** SIGNUP_PIN_LENGTH)).padStart(SIGNUP_PIN_LENGTH, '0');
}

export type SignupWizardService = ReturnType<typeof createSignupWizardService>;

/** What a pin e-mail's job checks before it is sent: its sign-up still waits for that pin. */
type PinRef = { onceTokenHash: string };

/**
 * The sign-up wizard (docs/product.md §4 Signup wizard, §5 Signup): an e-mailed 6-digit pin proves
 * the address (15 minutes, 5 tries), then createaccount makes the organisation, its admin and a first
 * project with Development and Production in one transaction and answers a one-time login token.
 */
export function createSignupWizardService(deps: {
  db: Database;
  audit: AuditService;
  auth: AuthService;
  /** The new organisation's trial (docs/adr/0016-billing-providers.md). */
  billing: Pick<BillingService, 'startTrial'>;
  projects: Pick<ProjectsService, 'createWithin' | 'announceEnvironments'>;
  organisations: Pick<OrganisationsService, 'create'>;
  members: Pick<MembersService, 'createAdmin'>;
  mail: MailQueue;
  publicUrl: string;
  hashCost: HashCost;
  now?: () => Date;
}) {
  const { db, audit, auth, billing, projects, organisations, members, mail, publicUrl, hashCost } = deps;
  const now = deps.now ?? (() => new Date());
  mail.whileWanted('sign-up pin', (executor, ref) =>
    repo.signupAwaitsPin(executor, (ref as PinRef).onceTokenHash, now()),
  );
  const perAddress = createAddressLimit({
    db,
    now,
    keyPrefix: 'signup-pin-mails',
    points: PINS_PER_ADDRESS_PER_HOUR,
    durationSeconds: 60 * 60,
  });

  /** The free ones among a taken domain's suggestions. */
  async function freeSuggestions(domain: string): Promise<string[]> {
    const candidates = domainSuggestions(domain).filter((d) => !isReservedOrganisationDomain(d));
    const taken = await repo.takenDomains(db, candidates);
    return candidates.filter((d) => !taken.has(d));
  }

  return {
    /**
     * POST /api/v1/signup/registeremail: e-mails a pin and answers the `once` that goes with it. An
     * address may found any number of organisations, so the answer never depends on its accounts.
     * A new pin asked for in place of another (`previousOnce`) ends the other's sign-up: only the
     * latest pin works.
     */
    async registerEmail(input: RegisterEmailInput): Promise<RegisterEmailResponse> {
      const email = input.email.toLowerCase();
      await perAddress.take(email);
      const at = now();
      const once = newSecretToken(ONCE_PREFIX);
      const pin = newPin();
      const expiresAt = new Date(at.getTime() + SIGNUP_PIN_LIFETIME_MINUTES * MINUTE_MS);
      await db.transaction(async (tx) => {
        if (input.previousOnce) await repo.endSignup(tx, hashToken(input.previousOnce), at);
        const onceTokenHash = hashToken(once);
        await repo.insertSignup(tx, {
          email,
          onceTokenHash,
          pinHash: pinHashOf(once, pin),
          beta: input.beta,
          expiresAt,
          createdAt: at,
        });
        // Queued with its sign-up (sealed: the pin is stored nowhere else in clear); not sent once
        // the pin has expired, or was replaced by a newer one.
        await mail.enqueue(tx, {
          purpose: 'sign-up pin',
          organisationId: null,
          message: signupPinMail({ email, pin }),
          notAfter: expiresAt,
          ref: { onceTokenHash } satisfies PinRef,
        });
      });
      return { once };
    },

    /**
     * POST /api/v1/signup/validatepin: a right pin within 15 minutes confirms the sign-up for the
     * next hour; each wrong one counts, and after 5 the pin is dead.
     */
    async validatePin(input: ValidatePinInput): Promise<void> {
      const at = now();
      const outcome = await db.transaction(async (tx) => {
        const signup = await repo.findSignupForUpdate(tx, hashToken(input.once));
        if (!signup || signup.completedAt || signup.expiresAt <= at || signup.attempts >= SIGNUP_PIN_TRIES)
          return 'dead';
        if (signup.email !== input.email.toLowerCase() || !pinMatches(signup, input.once, input.pin)) {
          await repo.countWrongPin(tx, signup.id);
          return signup.attempts + 1 >= SIGNUP_PIN_TRIES ? 'dead' : 'wrong';
        }
        if (!signup.verifiedAt)
          await repo.markSignupVerified(
            tx,
            signup.id,
            at,
            new Date(at.getTime() + SIGNUP_COMPLETION_MINUTES * MINUTE_MS),
          );
        return 'ok';
      });
      if (outcome === 'dead') throw pinError(PIN_DEAD_DETAIL);
      if (outcome === 'wrong') throw pinError();
    },

    /** POST /api/v1/signup/checkdomain: whether the (normalised) domain is free, else free alternatives. */
    async checkDomain(domain: string): Promise<CheckDomainResponse> {
      const taken =
        isReservedOrganisationDomain(domain) || (await repo.takenDomains(db, [domain])).has(domain);
      if (!taken) return { available: true, suggestions: [] };
      return { available: false, suggestions: await freeSuggestions(domain) };
    },

    /**
     * POST /api/v1/signup/createaccount: spends the confirmed sign-up and creates the organisation,
     * its activated admin and the first project with its environments together; a taken domain
     * leaves the sign-up usable with another one.
     */
    async createAccount(input: CreateAccountInput): Promise<CreateAccountResponse> {
      const email = input.email.toLowerCase();
      const domain = input.organisationDomain;
      const unavailable = () => new ValidationError('organisationDomain', DOMAIN_UNAVAILABLE_MESSAGE);
      if (isReservedOrganisationDomain(domain)) throw unavailable();
      const passwordHash = await hashPassword(input.password, hashCost);
      const at = now();
      const created = await db.transaction(async (tx) => {
        const signup = await repo.findSignupForUpdate(tx, hashToken(input.once));
        const live =
          signup &&
          signup.email === email &&
          signup.verifiedAt &&
          !signup.completedAt &&
          signup.expiresAt > at &&
          pinMatches(signup, input.once, input.pin);
        if (!live) return null;
        const organisation = await organisations.create(tx, { name: input.organisationName, domain, at });
        if (!organisation) throw unavailable();
        // The trial first: the first project is created within its plan's limits.
        await billing.startTrial(tx, organisation.id);
        const account = { email, firstName: input.firstName, lastName: input.lastName };
        const admin = await members.createAdmin(tx, organisation.id, { ...account, passwordHash }, at);
        const principal: Principal = {
          kind: 'session',
          // No session exists yet: the projects service reads the organisation and the admin from it.
          sessionId: '',
          userId: admin.id,
          organisationId: organisation.id,
          organisationDomain: organisation.domain,
          email,
          authorities: [AUTHORITIES.ROLE_ORGANISATION_ADMIN],
        };
        const { project, changed } = await projects.createWithin(tx, principal, FIRST_PROJECT);
        await repo.markSignupCompleted(tx, signup.id, at);
        await mail.enqueue(tx, {
          purpose: 'welcome',
          organisationId: organisation.id,
          message: welcomeMail({
            account,
            organisation: organisation.name,
            link: organisationLoginLink(publicUrl, organisation.domain),
          }),
        });
        const name = `${input.firstName} ${input.lastName}`.trim();
        await audit.record(
          tx,
          principal,
          signupAudit({
            kind: 'signup.organisation_created',
            admin: { name, email },
            organisation: { id: organisation.id, name: organisation.name, domain: organisation.domain },
            project: { key: project.key, name: project.name },
            environments: project.environments.map((e) => e.name),
          }),
        );
        return { organisation, admin, changed };
      });
      if (!created) throw pinError(SIGNUP_DEAD_DETAIL);
      const { organisation, admin, changed } = created;
      projects.announceEnvironments(changed);
      const token = await auth.createLoginToken(organisation.id, admin.id);
      return { token, domain: organisation.domain };
    },
  };
}
