import { decodeNda, decodePicture, type Upload } from '../files/store.ts';
import type { InviteeRow } from '../invitees/contract.ts';

/**
 * The picture and signed agreement an invitee pre-registered, as the check-in's uploads: the visit gets files of its
 * own (at the service that checks the guest in, a kiosk included, since they travel with the invitee's row), so
 * its retention and erasure are the visit's, as for a picture taken at the kiosk.
 */
export function registeredUploads(invitee: InviteeRow): { picture?: Upload; nda?: Upload } {
  if (invitee.registeredAt === null) return {};
  return {
    ...(invitee.registrationPicture
      ? { picture: decodePicture(invitee.registrationPicture, 'visitPicture', 'visit-picture') }
      : {}),
    ...(invitee.registrationNda ? { nda: decodeNda(invitee.registrationNda, 'visitNda') } : {}),
  };
}
