import type { QueryClient } from '@tanstack/react-query';
import { auditKeys } from '../../audit/api/query-keys';
import { featureKeys } from './query-keys';

/**
 * After any feature write: every features query is stale, and so is every feature's audit log, which
 * the write has added to. `refetchType: 'none'` only marks them, for a page that is about to leave.
 */
export function invalidateFeatures(
  queryClient: QueryClient,
  options: { refetchType?: 'none' } = {},
): Promise<void> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: featureKeys.all, ...options }),
    queryClient.invalidateQueries({ queryKey: auditKeys.features(), ...options }),
  ]).then(() => undefined);
}
