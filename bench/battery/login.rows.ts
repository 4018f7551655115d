/**
 * S3: wrong passwords repeated from one address for the owner's e-mail, and from another address
 * for an e-mail nobody has; the two sequences of answers must read the same, and the owner must
 * still sign in from a third address. TRUST_PROXY is on, so X-Forwarded-For is the client address.
 */
import { percentile, send, type Answer } from './client';
import type { Context } from './context';
import { fmt, verdictOf, type Outcome } from './report';
import { LOGIN_DOMAIN, ownerOf, PASSWORD } from './setup';

const ATTEMPTS = 30;

function attempt(base: string, address: string, username: string, password: string) {
  return send(base, {
    method: 'POST',
    path: '/api/authenticate',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': address, host: 'localhost' },
    body: JSON.stringify({ username, password, domain: LOGIN_DOMAIN }),
  });
}

/** What a client can tell apart: status, body, and whether Retry-After is set. */
function reading(answer: Answer): string {
  return `${answer.status} ${answer.retryAfter === null ? '' : '(Retry-After) '}${answer.body}`;
}

export async function s3(ctx: Context): Promise<Outcome> {
  const base = ctx.product.base;
  const known: Answer[] = [];
  const unknown: Answer[] = [];
  for (let i = 0; i < ATTEMPTS; i++) {
    const [k, u] = await Promise.all([
      attempt(base, '203.0.113.10', ownerOf(LOGIN_DOMAIN), `wrong-${i}`),
      attempt(base, '203.0.113.20', `nobody@${LOGIN_DOMAIN}.example.com`, `wrong-${i}`),
    ]);
    known.push(k);
    unknown.push(u);
  }
  const differ = known.findIndex((answer, i) => reading(answer) !== reading(unknown[i]!));
  const owner = await attempt(base, '203.0.113.30', ownerOf(LOGIN_DOMAIN), PASSWORD);
  const statuses = (answers: Answer[]) => {
    const counts = new Map<number, number>();
    for (const answer of answers) counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
    return [...counts].map(([status, count]) => `${count}× ${status}`).join(', ');
  };
  const took = (answers: Answer[]) =>
    percentile(
      answers.map((a) => a.answeredAt - a.sentAt),
      0.5,
    );
  return {
    figures: [
      `${ATTEMPTS} wrong passwords each: owner's e-mail ${statuses(known)}; unknown e-mail ${statuses(unknown)}`,
      differ === -1
        ? 'answers identical (status, body, Retry-After)'
        : `attempt ${differ + 1} differs: known "${reading(known[differ]!).slice(0, 120)}" vs unknown "${reading(unknown[differ]!).slice(0, 120)}"`,
      `median answer time known ${fmt.ms(took(known))}, unknown ${fmt.ms(took(unknown))}`,
      `owner from another address: ${owner.status}${owner.status === 200 ? '' : ` ${owner.body.slice(0, 120)}`}`,
    ],
    ...verdictOf({
      [`known and unknown e-mails answer differently from attempt ${differ + 1}`]: differ === -1,
      [`owner refused from another address (${owner.status})`]: owner.status === 200,
    }),
  };
}
