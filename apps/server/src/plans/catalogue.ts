import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { FREE_PLAN_LIMITS, LIMIT_KEYS, type Limits, type PriceInterval, type Product } from '@vexil/core';

/*
 * The plans of the `local` billing provider, and the Free plan and the trial's plan whichever the
 * provider (docs/adr/0016-billing-providers.md): built in, or read from BILLING_PLANS_FILE at start-up.
 * Outside `modules/`: the configuration (`config.ts`) reads it, and billing's services and the local
 * provider are given what it read.
 */

/** The id of the Free plan, for `npm run billing -- set-plan --plan free` and the local checkout. */
export const FREE_PLAN_ID = 'free';
/** Catalogue ids get this prefix in the API, so they never collide with a payment provider's ids. */
export const LOCAL_ID_PREFIX = 'local-';

const count = z.number().int('must be a whole number').min(0, 'must be 0 or more');
const cents = z.number().int('must be a whole number of cents').min(0, 'must be 0 or more cents');

/** Limits as the file writes them: a number missing or null is unlimited, a capability missing is included. */
const limitsInput = z
  .object({
    maxOrganisationUsers: count.nullable(),
    auditLog: z.boolean(),
    variantTesting: z.boolean(),
    maxApplicationUniqueUsers: count.nullable(),
    maxImpressions: count.nullable(),
    maxProjects: count.nullable(),
    maxEnvironments: count.nullable(),
    maxFeatures: count.nullable(),
  })
  .partial()
  .strict();

const productInput = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'must be 1 to 40 lowercase letters, digits and hyphens')
      .refine((id) => id !== FREE_PLAN_ID, `"${FREE_PLAN_ID}" is the Free plan's id`),
    name: z.string().trim().min(1, 'is required').max(60),
    features: z.array(z.string().trim().min(1).max(200)).max(20).default([]),
    limits: limitsInput.default({}),
    prices: z
      .object({ month: cents, year: cents })
      .partial()
      .strict()
      .refine((p) => p.month !== undefined || p.year !== undefined, 'needs a month or a year price'),
  })
  .strict();

const catalogueInput = z
  .object({
    /** ISO 4217, e.g. usd. */
    currency: z
      .string()
      .regex(/^[a-zA-Z]{3}$/, 'must be a three-letter currency code such as usd')
      .transform((c) => c.toLowerCase())
      .default('usd'),
    free: z
      .object({ name: z.string().trim().min(1).max(60).default('Free'), limits: limitsInput.default({}) })
      .strict()
      .default({ name: 'Free', limits: {} }),
    /** The product a new organisation's trial is on; the first product when left out. */
    trialProductId: z.string().optional(),
    products: z.array(productInput).min(1, 'needs at least one paid plan').max(20),
  })
  .strict();

/**
 * What depends on several products: ids listed once, the trial's product one of them. Read from the
 * file as written, so these come with the other problems rather than after they are fixed.
 */
function crossProblems(json: unknown): string[] {
  if (typeof json !== 'object' || json === null) return [];
  const { products, trialProductId } = json as { products?: unknown; trialProductId?: unknown };
  if (!Array.isArray(products)) return [];
  const ids = products.map((p) =>
    typeof p === 'object' && p !== null ? (p as { id?: unknown }).id : undefined,
  );
  const problems: string[] = [];
  ids.forEach((id, index) => {
    if (typeof id === 'string' && ids.indexOf(id) !== index)
      problems.push(`products.${index}.id: "${id}" is listed twice`);
  });
  if (typeof trialProductId === 'string' && !ids.includes(trialProductId))
    problems.push(`trialProductId: names no product (products: ${ids.map(String).join(', ')})`);
  return problems;
}

export type { PriceInterval };

/** A paid plan of the catalogue, with its API ids (`local-team`, `local-team-month`). */
export type CataloguePlan = {
  /** The API id: `local-` and the file's id. */
  id: string;
  name: string;
  features: string[];
  /** Every key present. */
  limits: Limits;
  /** Per seat per interval, in cents; the API price id is `{id}-{interval}`. */
  prices: Partial<Record<PriceInterval, { id: string; amount: number }>>;
};

export type BillingCatalogue = {
  currency: string;
  free: { name: string; limits: Limits };
  /** The plan a new organisation's trial is on. */
  trialPlan: CataloguePlan;
  plans: CataloguePlan[];
};

function fullLimits(partial: Partial<Limits>, base?: Readonly<Limits>): Limits {
  const limits = {} as Record<string, number | boolean | null>;
  for (const key of LIMIT_KEYS) {
    const value = partial[key] ?? base?.[key];
    limits[key] = key === 'auditLog' || key === 'variantTesting' ? value !== false : (value ?? null);
  }
  return limits as Limits;
}

/**
 * The built-in catalogue: the Free plan of docs/product.md §9 (a single seat, 1 project, 2 environments,
 * no audit log, no experiments) and one paid plan, Team.
 */
export const DEFAULT_CATALOGUE_INPUT: z.input<typeof catalogueInput> = {
  currency: 'usd',
  free: { name: 'Free', limits: { ...FREE_PLAN_LIMITS } },
  trialProductId: 'team',
  products: [
    {
      id: 'team',
      name: 'Team',
      features: [
        'Unlimited seats, billed per seat',
        'Up to 10 projects and 50 environments',
        'Unlimited features',
        'Audit log',
        'Experiments',
        '100,000 application users and 10,000,000 impressions a month',
      ],
      limits: {
        maxOrganisationUsers: null,
        auditLog: true,
        variantTesting: true,
        maxApplicationUniqueUsers: 100_000,
        maxImpressions: 10_000_000,
        maxProjects: 10,
        maxEnvironments: 50,
        maxFeatures: null,
      },
      prices: { month: 2000, year: 19200 },
    },
  ],
};

function build(input: z.output<typeof catalogueInput>): BillingCatalogue {
  const plans: CataloguePlan[] = input.products.map((p) => {
    const id = `${LOCAL_ID_PREFIX}${p.id}`;
    const prices: CataloguePlan['prices'] = {};
    if (p.prices.month !== undefined) prices.month = { id: `${id}-month`, amount: p.prices.month };
    if (p.prices.year !== undefined) prices.year = { id: `${id}-year`, amount: p.prices.year };
    return { id, name: p.name, features: p.features, limits: fullLimits(p.limits), prices };
  });
  const trialId = `${LOCAL_ID_PREFIX}${input.trialProductId ?? input.products[0]!.id}`;
  return {
    currency: input.currency,
    // The Free plan's unset limits are the built-in Free plan's, not unlimited.
    free: { name: input.free.name, limits: fullLimits(input.free.limits, FREE_PLAN_LIMITS) },
    trialPlan: plans.find((p) => p.id === trialId)!,
    plans,
  };
}

export const DEFAULT_CATALOGUE: BillingCatalogue = build(catalogueInput.parse(DEFAULT_CATALOGUE_INPUT));

/**
 * Reads and checks BILLING_PLANS_FILE; problems come back as sentences naming the place in the file
 * (`products.0.prices.month: must be a whole number of cents`), for the start-up message.
 */
export function readCatalogueFile(
  file: string,
): { catalogue: BillingCatalogue; problems: [] } | { catalogue: null; problems: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { catalogue: null, problems: [`cannot read ${file}${code ? ` (${code})` : ''}`] };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { catalogue: null, problems: [`${file} is not JSON: ${(error as Error).message}`] };
  }
  const parsed = catalogueInput.safeParse(json);
  const problems = [
    ...(parsed.success
      ? []
      : parsed.error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(file)'}: ${i.message}`)),
    ...crossProblems(json),
  ];
  if (!parsed.success || problems.length) return { catalogue: null, problems };
  return { catalogue: build(parsed.data), problems: [] };
}

/** The plans as GET /api/v1/products/ lists them (docs/product.md §3 Product). */
export function catalogueProducts(catalogue: BillingCatalogue): Product[] {
  return catalogue.plans.map((plan) => ({
    id: plan.id,
    name: plan.name,
    features: plan.features,
    prices: Object.fromEntries(
      Object.entries(plan.prices).map(([interval, price]) => [
        interval,
        { id: price.id, amount: price.amount, currency: catalogue.currency, interval },
      ]),
    ) as Product['prices'],
  }));
}

/** The plan and interval a local price id names (`local-team-year`), or null. */
export function findCataloguePrice(
  catalogue: BillingCatalogue,
  priceId: string,
): { plan: CataloguePlan; interval: PriceInterval; amount: number } | null {
  for (const plan of catalogue.plans) {
    for (const [interval, price] of Object.entries(plan.prices) as [
      PriceInterval,
      { id: string; amount: number },
    ][]) {
      if (price.id === priceId) return { plan, interval, amount: price.amount };
    }
  }
  return null;
}
