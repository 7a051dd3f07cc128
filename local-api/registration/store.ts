import { type AuditActor, recordAudit } from '../audit/store.ts';
import { companyCaller } from '../companies/store.ts';
import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { type CustomFieldRow, checkinAnswers, customFieldObject, liveAnswers } from '../custom-fields/store.ts';
import { decodeNda, decodePicture } from '../files/store.ts';
import { ApiError } from '../http/errors.ts';
import type { InviteeRow } from '../invitees/contract.ts';
import { findInvitee } from '../invitees/store.ts';
import { kioskSettings } from '../kiosk/store.ts';
import { type LinkClaims, openLink } from '../public/links.ts';
import { isLanguage, type Language } from '../rules/lang.ts';
import { firstNameAndInitial } from '../rules/names.ts';
import { formatInZone } from '../rules/time.ts';
import { prepared, updateRow } from '../store/rows.ts';
import { asksField, type EffectiveRules, effectiveRules } from '../visitor-types/rules.ts';
import { typeRules } from '../visitor-types/store.ts';
import type { AnswerItem } from '../visits/contract.ts';
import { inviteeAnswers, mergeAnswers } from '../visits/store.ts';
import { type RegistrationForm, type RegistrationInput, registrationFileMaxBytes } from './schema.ts';
import { type RegistrationWindow, registrationWindow, type WindowState, windowState } from './window.ts';

/** Where a register link stands: the page it opens, and the invitee and company behind it. */
export interface Registration {
  claims: LinkClaims;
  /** The company, as its own background work acts (the guest has no credential of the company's). */
  caller: Caller;
  /** Undefined once the invitation was deleted. */
  invitee: InviteeRow | undefined;
  window: RegistrationWindow;
  state: WindowState | 'canceled' | 'arrived';
}

async function meetingWindowOf(ctx: Context, caller: Caller, meetingId: string | null) {
  if (meetingId === null) return undefined;
  return (await prepared(
    ctx.db,
    'SELECT startRegistrationAt, endRegistrationAt FROM meetings WHERE id = ? AND companyId = ?',
  ).get(meetingId, caller.companyId)) as { startRegistrationAt: number | null; endRegistrationAt: number | null };
}

/**
 * What a register link opens, checked again on every request (the token is the guest's only credential): a forged,
 * altered or other-purpose token is LINK_INVALID, an expired one LINK_EXPIRED (links.ts).
 */
export async function openRegistration(ctx: Context, token: string): Promise<Registration> {
  const claims = await openLink(ctx, token, 'register');
  const caller = await companyCaller(ctx, claims.companyId);
  if (!caller) throw new ApiError('LINK_INVALID');
  const invitee = await findInvitee(ctx, caller, claims.subjectId);
  const window = invitee
    ? registrationWindow({
        invitedAt: Number(invitee.createdAt),
        expectedAt: Number(invitee.expectedAt),
        timeZone: caller.timeZone,
        meeting: await meetingWindowOf(ctx, caller, invitee.meetingId),
      })
    : { opensAt: 0, closesAt: 0 };
  const state =
    !invitee || invitee.status === 'canceled'
      ? 'canceled'
      : invitee.status === 'arrived'
        ? 'arrived'
        : windowState(window, ctx.clock.now());
  return { claims, caller, invitee, window, state };
}

/** Refuses a registration the page may not change now, with the reason the page shows. */
export function requireOpen(registration: Registration): InviteeRow {
  const refusal = {
    canceled: 'INVITEE_CANCELED',
    arrived: 'INVITEE_ARRIVED',
    early: 'REGISTRATION_NOT_OPEN',
    closed: 'REGISTRATION_CLOSED',
  } as const;
  if (registration.state !== 'open' || !registration.invitee) {
    throw new ApiError(refusal[registration.state === 'open' ? 'canceled' : registration.state]);
  }
  return registration.invitee;
}

interface Requirements {
  rules: EffectiveRules;
  /** The required custom fields the kiosk would ask this guest (their type's, else every one of the company's). */
  fields: CustomFieldRow[];
  /** The questionnaire the kiosk would ask. */
  questions: CustomFieldRow[];
}

/** What the kiosk asks a guest of the invitee's type, as this service's kiosk settings and the type's rules say. */
async function requirementsOf(ctx: Context, caller: Caller, invitee: InviteeRow, lang: string): Promise<Requirements> {
  const type = await typeRules(ctx, caller, invitee.visitorTypeId);
  const rules = effectiveRules(type, await kioskSettings(ctx, caller), lang);
  const defs = (
    (await prepared(
      ctx.db,
      'SELECT * FROM custom_fields WHERE companyId = ? AND deletedAt IS NULL ORDER BY sort, rowid',
    ).all(caller.companyId)) as CustomFieldRow[]
  ).filter((def) => asksField(rules, def.id));
  return {
    rules,
    fields: defs.filter((def) => def.location === 'FIELD' && def.required === 1),
    questions: defs.filter((def) => def.location === 'QUESTIONNAIRE'),
  };
}

/** The language the page speaks: the one asked, else the invitation's, else the browser's. */
export function registrationLang(invitee: InviteeRow, asked: unknown, browser: Language): Language {
  if (typeof asked === 'string' && isLanguage(asked)) return asked;
  return invitee.lang && isLanguage(invitee.lang) ? invitee.lang : browser;
}

const hostNameOf = async (ctx: Context, caller: Caller, hostId: string) =>
  ((await prepared(ctx.db, 'SELECT name FROM hosts WHERE id = ? AND companyId = ?')
    .pluck()
    .get(hostId, caller.companyId)) as string | undefined) ?? null;

/** The page's form: whom the guest visits, what the company asks, and what the guest registered before. */
export async function registrationFormOf(
  ctx: Context,
  registration: Registration,
  lang: Language,
): Promise<RegistrationForm> {
  const invitee = requireOpen(registration);
  const { caller } = registration;
  const asked = await requirementsOf(ctx, caller, invitee, lang);
  const company = (await prepared(ctx.db, 'SELECT name, brandColor FROM companies WHERE id = ?').get(
    caller.companyId,
  )) as { name: string; brandColor: string | null };
  const answers = [
    ...(await liveAnswers(ctx, caller, inviteeAnswers(invitee))),
    ...(JSON.parse(invitee.questionnaireFields) as AnswerItem[]),
  ];
  const name = String(invitee.name ?? '');
  return {
    lang,
    company: { name: company.name, brandColor: company.brandColor, timezone: caller.timeZone },
    guest: {
      name,
      firstName: firstNameAndInitial(name).firstName,
      hostName: await hostNameOf(ctx, caller, invitee.hostId),
      expectedAt: formatInZone(Number(invitee.expectedAt), caller.timeZone),
    },
    closesAt: formatInZone(registration.window.closesAt, caller.timeZone),
    fields: asked.fields.map((def) => customFieldObject(def, caller) as RegistrationForm['fields'][number]),
    questions: asked.questions.map((def) => customFieldObject(def, caller) as RegistrationForm['questions'][number]),
    pictureMode: asked.rules.pictureMode,
    ndaText: asked.rules.ndaText,
    registration: {
      registeredAt: invitee.registeredAt === null ? null : formatInZone(Number(invitee.registeredAt), caller.timeZone),
      answers: Object.fromEntries(answers.map((answer) => [answer.customFieldId, answer.value])),
      picture: invitee.registrationPicture ? pictureDataUrl(invitee.registrationPicture) : null,
      signed: invitee.registrationNda !== null,
    },
  };
}

/** A stored Base64 picture as a data: URL, its type read from its first bytes (JPEG or PNG). */
const pictureDataUrl = (base64: string) => `data:image/${base64.startsWith('/9j/') ? 'jpeg' : 'png'};base64,${base64}`;

/** A Base64 upload checked as the kiosk's would be, within the registration's own limit; stored canonical. */
function registrationFile(text: string, field: 'picture' | 'nda'): string {
  const bytes = field === 'picture' ? decodePicture(text, field, 'visit-picture').bytes : decodeNda(text, field).bytes;
  if (bytes.length > registrationFileMaxBytes) {
    throw new ApiError(field === 'picture' ? 'INVALID_PICTURE' : 'INVALID_NDA', { field, reason: 'too large' });
  }
  return bytes.toString('base64');
}

/** The guest of a link, as the audit log names them: no credential of the company's, the link's id instead. */
const guestActor = (claims: LinkClaims): AuditActor => ({
  companyId: claims.companyId,
  credentialId: `link:${claims.purpose}:${claims.nonce}`,
  role: 'guest',
});

/**
 * Saves the guest's pre-registration on the invitee, in one transaction: the answers checked as a check-in's are
 * (every required field and question the kiosk would ask), the picture where the kiosk requires one, the signed
 * agreement where there is one to sign. Again and again until the visit: each save replaces what it sends. Audited
 * as `invitee.registered`; no `invitee.updated` event, since the invitation itself (time, host, guest) did not
 * change and its e-mail must not be sent again. At a kiosk of a hub the write is the hub's (MANAGED_BY_HUB).
 */
export async function saveRegistration(
  ctx: Context,
  token: string,
  input: RegistrationInput,
  lang: Language,
): Promise<{ registeredAt: string }> {
  return await inTransaction(ctx, async () => {
    const registration = await openRegistration(ctx, token);
    const invitee = requireOpen(registration);
    const { caller } = registration;
    await ctx.events.decide('invitee.updated', caller);
    const asked = await requirementsOf(ctx, caller, invitee, lang);
    const answers = await checkinAnswers(
      ctx,
      caller,
      {
        customFields: mergeAnswers(await liveAnswers(ctx, caller, inviteeAnswers(invitee)), input.customFields),
        questionnaireFields: input.questionnaireFields,
        feedbacks: [],
      },
      'checkin',
      asked.rules.customFieldIds,
    );
    const picture =
      input.picture === undefined
        ? invitee.registrationPicture
        : input.picture === null
          ? null
          : registrationFile(input.picture, 'picture');
    if (asked.rules.pictureMode === 'required' && !picture && !invitee.pictureFile && !invitee.pictureUrl) {
      throw new ApiError('MISSING_PICTURE', { field: 'picture' });
    }
    const nda = input.nda === undefined ? invitee.registrationNda : registrationFile(input.nda, 'nda');
    if (asked.rules.ndaText.trim() !== '' && !nda) throw new ApiError('MISSING_NDA', { field: 'nda' });
    const now = ctx.clock.now();
    await updateRow(ctx.db, 'invitees', caller.companyId, invitee.id, {
      customFields: JSON.stringify(
        (answers.customFields ?? []).map((answer) => ({
          id: answer.customFieldId,
          name: answer.name,
          type: (answer as { type?: string }).type,
          value: answer.value,
        })),
      ),
      questionnaireFields: JSON.stringify(answers.questionnaireFields ?? []),
      registrationPicture: picture,
      registrationNda: nda,
      ndaSignature: input.nda === undefined ? invitee.ndaSignature : (input.ndaSignature ?? 'DRAWN'),
      registeredAt: now,
      updatedAt: now,
    });
    await recordAudit(ctx, guestActor(registration.claims), {
      action: 'invitee.registered',
      objectType: 'invitee',
      objectId: invitee.id,
      details: {
        again: invitee.registeredAt !== null,
        answers: (answers.customFields?.length ?? 0) + (answers.questionnaireFields?.length ?? 0),
        picture: picture !== null,
        nda: nda !== null,
      },
    });
    return { registeredAt: formatInZone(now, caller.timeZone) };
  });
}
