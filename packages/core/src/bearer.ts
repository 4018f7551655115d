/**
 * The token of an `Authorization: Bearer <token>` header, or null: the scheme in any case (old docs
 * write `bearer`), one token, blanks around it ignored. Personal access tokens, sessions and SDK keys
 * are all sent so.
 */
export function bearerTokenOf(header: string | undefined): string | null {
  if (typeof header !== 'string') return null;
  const match = /^bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}
