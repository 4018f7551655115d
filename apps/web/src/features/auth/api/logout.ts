import { apiClient } from '../../../lib/api-client';

/** POST /api/logout: revokes the session and clears its cookie. Signing out never shows an error. */
export async function logout(): Promise<void> {
  await apiClient.post('/api/logout', undefined, { authenticated: false, notifyErrors: false });
}
