/**
 * GET /api/v1/sso/start?domain={organisation}&rememberMe={bool}: not a call but the address the
 * browser goes to (a full-page navigation). The server sends it on to the organisation's identity
 * provider; on the way back it lands on /login/{token} when signed in, else on
 * /login?sso={reason} (core's SSO_FAILURE_MESSAGES).
 */
export function ssoStartUrl(domain: string, rememberMe: boolean): string {
  const query = new URLSearchParams({ domain, rememberMe: String(rememberMe) });
  return `/api/v1/sso/start?${query.toString()}`;
}
