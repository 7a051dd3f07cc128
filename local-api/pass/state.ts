import { cardNumberOf } from '../access/qr.ts';

/*
 * What a visitor's pass page shows at an instant (docs/access-control.md, "The pass page"). Pure functions: the
 * rows and the time are passed in. The gate itself knows nothing of visits (it judges a code by its key and its time), so the
 * page is what keeps a code to the visit's window: it shows none before or after it.
 */

export type PassState =
  /** The gate code is shown; a card number the gate cannot read (not an int32) makes no code. */
  | { kind: 'live'; cardNumber: number | undefined }
  /** An invitee's day has not begun (`startsAt`, Unix milliseconds). */
  | { kind: 'upcoming'; startsAt: number }
  /** Checked in, not let in yet: the host or the reception has not confirmed the visit. */
  | { kind: 'waiting' }
  /** The link is genuine, but its visit has not reached this service yet (a kiosk's check-in syncs to its hub). */
  | { kind: 'pending' }
  /** Checked out, turned away, canceled, or the invitee's day is over. */
  | { kind: 'ended' };

/** The columns of a visit the pass depends on. */
export interface PassVisit {
  checkoutAt: number | null;
  isInsideCompany: number;
  authorizationStatus: string | null;
  cardNumber: string | null;
  deletedAt: number | null;
}

/** The columns of an invitee the pass depends on. */
export interface PassInvitee {
  status: string;
  cardNumber: number;
  deletedAt: number | null;
}

/**
 * A visit's pass: live from the moment it is let in (the same rule as the kiosk's gate code) until it is checked
 * out; nothing while it waits for its host or the reception; ended once out, denied or deleted.
 */
export function visitPassState(visit: PassVisit | undefined): PassState {
  if (!visit) return { kind: 'pending' };
  if (visit.deletedAt !== null || visit.checkoutAt !== null || visit.authorizationStatus === 'DENIED') {
    return { kind: 'ended' };
  }
  if (visit.isInsideCompany !== 1 || visit.authorizationStatus === 'AWAITING') return { kind: 'waiting' };
  return { kind: 'live', cardNumber: cardNumberOf(visit.cardNumber) };
}

/**
 * An invitee's pass: before arrival, live inside `window` (from the start of the expected day in the company's
 * zone, the day the kiosk finds the invitation as "expected today", to the end of the invited visit); once
 * arrived, the pass of the visit the check-in made (it keeps the invitee's card number, so the code does not
 * change), until its check-out.
 */
export function inviteePassState(
  invitee: PassInvitee | undefined,
  visit: PassVisit | undefined,
  window: { start: number; end: number },
  now: number,
): PassState {
  if (!invitee) return { kind: 'pending' };
  if (visit) return visitPassState(visit);
  if (invitee.deletedAt !== null || invitee.status === 'canceled' || now >= window.end) return { kind: 'ended' };
  if (now < window.start) return { kind: 'upcoming', startsAt: window.start };
  return { kind: 'live', cardNumber: cardNumberOf(invitee.cardNumber) };
}

/** How long a walk-in's link opens its pass: a day; the page shows nothing once the visit is checked out. */
export const visitPassLinkMs = 24 * 3_600_000;
