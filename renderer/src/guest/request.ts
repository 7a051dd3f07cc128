import { ApiProblem, unreachable } from '../api.ts';
import { problemText } from '../problems.ts';
import type { guestWords } from './words.ts';

/** A refusal of the register page's endpoints (`{ type }`), said in the page's words, else the kiosk's. */
export class GuestProblem extends ApiProblem {
  text(words: ReturnType<typeof guestWords>): string {
    return words.errors[this.type] ?? problemText(this);
  }
}

/** A call to the register page's own endpoints: JSON both ways, the link's token in the path is the credential. */
export async function guestRequest<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers: { accept: 'application/json', ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? null : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'omit',
    });
  } catch {
    throw new GuestProblem(unreachable, 0);
  }
  const answer = (await response.json().catch(() => ({}))) as Record<string, unknown>;
  if (!response.ok) {
    const { type, ...extra } = answer;
    throw new GuestProblem(typeof type === 'string' ? type : 'UNKNOWN', response.status, extra);
  }
  return answer as T;
}
