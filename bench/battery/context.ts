/** What every row gets: the running product, its database, the organisations, and the run's pace. */
import type { Product } from './product';
import type { Tenant } from './setup';
import { storedImpressions, type Store } from './store';

export type Context = {
  store: Store;
  product: Product;
  tenants: Tenant[];
  quick: boolean;
  /** A phase's length in seconds: the row's full figure, or a short one with --quick. */
  seconds(full: number, quick: number): number;
  log(message: string): void;
};

/**
 * Stops the product the way an orchestrator does (SIGTERM, so it flushes what it acknowledged),
 * reads what the database holds for the row's features, and starts it again.
 */
export async function storedAfterStop(ctx: Context, prefix: string) {
  const cleanStop = await ctx.product.stop();
  if (!cleanStop) ctx.log('the product did not stop within 20 s of SIGTERM and was killed');
  const stored = await storedImpressions(ctx.store, prefix);
  await ctx.product.start();
  return { stored, cleanStop };
}
