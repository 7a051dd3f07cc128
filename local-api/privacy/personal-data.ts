import { type BlocklistRow, blocklistObject } from '../blocklist/store.ts';
import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import type { EventName } from '../events.ts';
import type { InviteeRow } from '../invitees/contract.ts';
import { inviteeObject } from '../invitees/present.ts';
import type { VisitorRow } from '../visitors/contract.ts';
import { visitorDataFields } from '../visitors/contract.ts';
import { visitorObject } from '../visitors/present.ts';
import type { VisitRow } from '../visits/contract.ts';
import { visitObject } from '../visits/present.ts';

/**
 * The tables that hold a visitor's personal data, and how to take it out of a row. Retention and erasure both
 * anonymise rows rather than delete them: the row keeps its id, times and host (other rows and the hub refer to
 * them; a deletion must be able to travel by sync), loses every field that says who the person was, and is marked
 * deleted. A part that stores more of a visitor adds its table here; meetings (guest lists, titles), notification
 * texts, queued deliveries and files are reached by the erasure itself (store.ts).
 */
export interface PersonalTable {
  table: string;
  /** The time a row's retention counts from; absent for rows kept until erased (the blocklist). */
  retainedFrom?: string;
  /** Columns with the person's data, set to NULL. */
  personal: readonly string[];
  /** JSON lists of the person's answers, set to '[]'. */
  answers: readonly string[];
  /** Columns naming the person's files (pictures, signed NDAs), deleted from disk. */
  files: readonly string[];
  /** Rows an erasure takes out with the erased rows of another table (the visits made from an erased invitee). */
  erasedWith?: { column: string; table: string };
  /** Published for each live row an erasure removes, so webhooks and sync learn of it. */
  deletedEvent: EventName;
  object(
    ctx: Context,
    caller: Caller,
    row: Record<string, unknown>,
  ): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/** Who the visitor is, as invitees, visits and visitors store it (the columns an erasure matches are among them). */
const visitorColumns = visitorDataFields;

/** In the order an erasure goes through them: a table before those erased with it. */
export const personalTables: readonly PersonalTable[] = [
  {
    table: 'invitees',
    retainedFrom: 'expectedAt',
    personal: [
      ...visitorColumns,
      'pictureUrl',
      'pictureFile',
      'notes',
      // The pre-registration (docs/kiosk.md): the picture and the signed agreement are text in the row itself.
      'registrationPicture',
      'registrationNda',
      'ndaSignature',
    ],
    answers: ['customFields', 'questionnaireFields'],
    files: ['pictureFile'],
    deletedEvent: 'invitee.deleted',
    object: async (ctx, caller, row) => await inviteeObject(ctx, caller, row as InviteeRow),
  },
  {
    table: 'visits',
    retainedFrom: 'checkinAt',
    personal: [...visitorColumns, 'notes', 'statusNote', 'customHostName', 'pictureFile', 'ndaFile'],
    answers: ['customFields', 'questionnaireFields', 'feedbacks'],
    files: ['pictureFile', 'ndaFile'],
    erasedWith: { column: 'inviteeId', table: 'invitees' },
    deletedEvent: 'visit.deleted',
    object: async (ctx, caller, row) => await visitObject(ctx, caller, row as VisitRow),
  },
  {
    // The record that recognizes a returning visitor, with the keys it is recognized by, and the consent to be
    // found again at the kiosk with the phone keys kept for it (docs/security.md, "Returning visitors").
    table: 'visitors',
    retainedFrom: 'lastVisitAt',
    personal: [
      ...visitorColumns,
      'emailKey',
      'cpfKey',
      'documentKey',
      'phoneKey',
      'phoneTail',
      'rememberConsent',
      'rememberConsentAt',
      'lastHostId',
    ],
    answers: [],
    files: [],
    deletedEvent: 'visitor.deleted',
    object: (_ctx, caller, row) => visitorObject(row as VisitorRow, caller.timeZone),
  },
  {
    // Whom the door refuses: kept until the company deletes it or the person has their data erased.
    table: 'blocklist',
    personal: [
      'name',
      'reason',
      'phone',
      'email',
      'document',
      'cpf',
      'rg',
      'cpfKey',
      'rgKey',
      'documentKey',
      'emailKey',
      'phoneKey',
      'phoneTail',
    ],
    answers: [],
    files: [],
    deletedEvent: 'blocklist.deleted',
    object: (_ctx, caller, row) => blocklistObject(row as BlocklistRow, caller),
  },
];

/** SQL true for a row an anonymisation has not reached yet: live, or still holding some of the person's data. */
export const holdsPersonalData = (table: PersonalTable): string =>
  [
    'deletedAt IS NULL',
    ...table.personal.map((column) => `${column} IS NOT NULL`),
    ...table.answers.map((column) => `${column} <> '[]'`),
  ].join(' OR ');

/** The UPDATE that anonymises one row (`:id`) and marks it deleted at `:now` unless it was already. */
export const anonymiseSql = (table: PersonalTable): string =>
  `UPDATE ${table.table} SET ${[
    ...table.personal.map((column) => `${column} = NULL`),
    ...table.answers.map((column) => `${column} = '[]'`),
    'deletedAt = COALESCE(deletedAt, :now)',
    'updatedAt = :now',
  ].join(', ')} WHERE id = :id`;
