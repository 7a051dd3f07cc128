/**
 * What the kiosk's QR codes carry. A badge carries `portaria:visit:<id>` (for check-out) and an invitation
 * `portaria:invitee:<id>`: a random UUID, never a name. A gate code of the access integration in TOTP form
 * (`T1.V.<cardNumber>.<period>.<otp>`) names its card number in clear, which finds the invitee or visit too.
 * AES gate codes are sealed with the company's key, which the page does not hold: they are not read here.
 */
export type ScannedCode =
  | { kind: 'visit'; id: string }
  | { kind: 'invitee'; id: string }
  | { kind: 'card'; cardNumber: number }
  | { kind: 'unknown' };

const uuid = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const reference = new RegExp(`^portaria:(visit|invitee):(${uuid})$`, 'i');
const totpCard = /^T1\.V\.(-?\d{1,10})\.\d{1,5}\.\d{8}$/;

export const visitCode = (id: string) => `portaria:visit:${id}`;
export const inviteeCode = (id: string) => `portaria:invitee:${id}`;

export function readCode(text: string): ScannedCode {
  const trimmed = text.trim();
  const ref = reference.exec(trimmed);
  if (ref?.[1] && ref[2]) return { kind: ref[1].toLowerCase() as 'visit' | 'invitee', id: ref[2].toLowerCase() };
  const card = totpCard.exec(trimmed) ?? /^(\d{4,10})$/.exec(trimmed);
  if (card?.[1]) return { kind: 'card', cardNumber: Number(card[1]) };
  return { kind: 'unknown' };
}
