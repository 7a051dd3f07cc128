import { dayAround } from '../kiosk/visitor-store.ts';

/** When a guest may pre-register (docs/kiosk.md, "Pre-registration"), in Unix milliseconds: from `opensAt` to `closesAt`. */
export interface RegistrationWindow {
  opensAt: number;
  closesAt: number;
}

/**
 * The meeting's registration window where the invitee's meeting sets one (either end may be set alone), else from
 * the invitation until the end of the visit's day in the company's zone. A window that would close before it opens
 * (a meeting's end set before the invitation was made) is closed from its start.
 */
export function registrationWindow(input: {
  invitedAt: number;
  expectedAt: number;
  timeZone: string;
  meeting?: { startRegistrationAt: number | null; endRegistrationAt: number | null } | undefined;
}): RegistrationWindow {
  const opensAt = input.meeting?.startRegistrationAt ?? input.invitedAt;
  const closesAt = input.meeting?.endRegistrationAt ?? dayAround(input.expectedAt, input.timeZone).end;
  return { opensAt, closesAt: Math.max(opensAt, closesAt) };
}

export type WindowState = 'early' | 'open' | 'closed';

export const windowState = (window: RegistrationWindow, now: number): WindowState =>
  now < window.opensAt ? 'early' : now < window.closesAt ? 'open' : 'closed';
