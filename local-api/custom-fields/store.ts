import { type Context, inTransaction } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import type { ListQuery, QueryFields } from '../http/list-query.ts';
import { newCustomFieldId } from '../rules/ids.ts';
import { findLiveRow, insertRow, listRows, objectToRow, prepared, rowToObject, updateRow } from '../store/rows.ts';
import type { AnswerItem } from '../visits/contract.ts';
import {
  type CustomFieldCreateInput,
  type CustomFieldLocation,
  type CustomFieldType,
  type CustomFieldUpdateInput,
  customFieldColumns,
  customFieldLocations,
  customFieldTypes,
} from './schema.ts';
import { isAnswered, type ValueProblem, valueProblem } from './values.ts';

export type CustomFieldRow = Record<string, unknown> & {
  id: string;
  name: string;
  type: CustomFieldType;
  options: string;
  required: number;
  localizedName: string;
  localizedOptions: string;
  sort: number;
  location: CustomFieldLocation;
};

type OptionLabels = Partial<Record<string, string[]>>;

export const customFieldQueryFields: QueryFields = {
  name: { kind: 'text' },
  type: { kind: 'text', values: Object.fromEntries(customFieldTypes.map((t) => [t, t])) },
  location: { kind: 'text', values: Object.fromEntries(customFieldLocations.map((l) => [l, l])) },
  required: { kind: 'boolean' },
  sort: { kind: 'number' },
};

export function customFieldObject(row: CustomFieldRow, caller: Caller): Record<string, unknown> {
  const { companyId: _company, ...object } = rowToObject(row, customFieldColumns, caller.timeZone);
  return object;
}

export async function getCustomField(ctx: Context, caller: Caller, id: string): Promise<CustomFieldRow> {
  const row = await findLiveRow<CustomFieldRow>(ctx.db, 'custom_fields', caller.companyId, id);
  if (!row) throw new ApiError('NOT_FOUND');
  return row;
}

/**
 * A dropdown without options could never be answered; a language's labels name the options one for one, so a list
 * of another length could only be misread.
 */
function requireOptions(type: CustomFieldType, options: readonly string[], labels: OptionLabels): void {
  if (type === 'Dropdown' && options.length === 0) throw new ApiError('INVALID_PARAMETER', { field: 'options' });
  if (Object.values(labels).some((list) => list !== undefined && list.length !== options.length)) {
    throw new ApiError('INVALID_PARAMETER', { field: 'localizedOptions' });
  }
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((item, i) => item === b[i]);

export async function createCustomField(
  ctx: Context,
  caller: Caller,
  input: CustomFieldCreateInput,
): Promise<CustomFieldRow> {
  requireOptions(input.type, input.options ?? [], input.localizedOptions ?? {});
  return await inTransaction(ctx, async () => {
    const taken = prepared(ctx.db, 'SELECT 1 FROM custom_fields WHERE id = ?');
    let id = newCustomFieldId(ctx.random);
    while (await taken.get(id)) id = newCustomFieldId(ctx.random);
    const now = ctx.clock.now();
    await ctx.events.decide('customfield.created', caller);
    await insertRow(ctx.db, 'custom_fields', {
      ...objectToRow(input, customFieldColumns),
      id,
      companyId: caller.companyId,
      createdAt: now,
      updatedAt: now,
    });
    const row = await getCustomField(ctx, caller, id);
    await ctx.events.publish('customfield.created', caller, () => customFieldObject(row, caller));
    return row;
  });
}

export async function updateCustomField(
  ctx: Context,
  caller: Caller,
  id: string,
  input: CustomFieldUpdateInput,
): Promise<CustomFieldRow> {
  return await inTransaction(ctx, async () => {
    const current = await getCustomField(ctx, caller, id);
    const currentOptions = JSON.parse(current.options) as string[];
    const options = input.options ?? currentOptions;
    // New options without new labels: the old labels named other options, so they go (a client of the interface
    // document, which knows no labels, then sees its options everywhere).
    const labels =
      input.localizedOptions ??
      (sameList(options, currentOptions) ? (JSON.parse(current.localizedOptions) as OptionLabels) : {});
    requireOptions(input.type ?? current.type, options, labels);
    await ctx.events.decide('customfield.updated', caller);
    await updateRow(ctx.db, 'custom_fields', caller.companyId, id, {
      ...objectToRow({ ...input, localizedOptions: labels }, customFieldColumns),
      updatedAt: ctx.clock.now(),
    });
    const row = await getCustomField(ctx, caller, id);
    await ctx.events.publish('customfield.updated', caller, () => customFieldObject(row, caller));
    return row;
  });
}

/** Deleting a definition keeps the answers already given (they carry its name and type). */
export async function deleteCustomField(ctx: Context, caller: Caller, id: string): Promise<void> {
  await inTransaction(ctx, async () => {
    const row = await getCustomField(ctx, caller, id);
    const now = ctx.clock.now();
    await ctx.events.decide('customfield.deleted', caller);
    await updateRow(ctx.db, 'custom_fields', caller.companyId, id, { deletedAt: now, updatedAt: now });
    const deleted = { ...row, deletedAt: now, updatedAt: now };
    await ctx.events.publish('customfield.deleted', caller, () => customFieldObject(deleted, caller));
  });
}

/** Definitions in the order the kiosk shows them, whatever the query compares. */
export async function listCustomFields(ctx: Context, caller: Caller, query: ListQuery): Promise<CustomFieldRow[]> {
  return await listRows<CustomFieldRow>(ctx.db, 'custom_fields', caller.companyId, {
    ...query,
    orderBy: 'sort, rowid',
  });
}

interface Definition {
  id: string;
  name: string;
  type: CustomFieldType;
  options: string[];
  required: boolean;
  localizedName: Record<string, string>;
  localizedOptions: OptionLabels;
  sort: number;
  location: CustomFieldLocation;
}

/** A dropdown answer in each language that labels its option (the answer item's `localizedValue`). */
function optionInLanguages(definition: Definition, value: string): Record<string, string> | undefined {
  const at = definition.options.indexOf(value);
  if (definition.type !== 'Dropdown' || at < 0) return undefined;
  const labels = Object.entries(definition.localizedOptions).flatMap(([lang, list]) =>
    list?.[at] ? [[lang, list[at]] as const] : [],
  );
  return labels.length > 0 ? Object.fromEntries(labels) : undefined;
}

async function definitions(ctx: Context, caller: Caller): Promise<Map<string, Definition>> {
  const rows = (await prepared(ctx.db, 'SELECT * FROM custom_fields WHERE companyId = ? AND deletedAt IS NULL').all(
    caller.companyId,
  )) as CustomFieldRow[];
  return new Map(
    rows.map((row) => [
      row.id,
      {
        id: row.id,
        name: row.name,
        type: row.type,
        options: JSON.parse(row.options) as string[],
        required: row.required === 1,
        localizedName: JSON.parse(row.localizedName) as Record<string, string>,
        localizedOptions: JSON.parse(row.localizedOptions) as OptionLabels,
        sort: row.sort,
        location: row.location,
      },
    ]),
  );
}

type Reason = 'unknown' | 'location' | 'duplicate' | ValueProblem;

const invalid = (customFieldId: string, reason: Reason) =>
  new ApiError('INVALID_CUSTOM_FIELD', { customFieldId, reason });

export type ResolvedAnswer = AnswerItem & { name: string; type: CustomFieldType };

/**
 * Checks answers against the company's definitions of one location and completes them with the definition's
 * name, type, localized name and order (what the visit object then shows). With `requireAll`, every required
 * definition of the location must be answered. Problems are INVALID_CUSTOM_FIELD naming the field and the reason.
 */
function resolveAnswers(
  known: ReadonlyMap<string, Definition>,
  answers: readonly AnswerItem[],
  location: CustomFieldLocation,
  requireAll: boolean,
  asked: AskedFields = null,
): ResolvedAnswer[] {
  const seen = new Set<string>();
  const resolved = answers.map((answer) => {
    const definition = known.get(answer.customFieldId);
    if (!definition) throw invalid(answer.customFieldId, 'unknown');
    if (definition.location !== location) throw invalid(answer.customFieldId, 'location');
    if (seen.has(definition.id)) throw invalid(answer.customFieldId, 'duplicate');
    seen.add(definition.id);
    const problem = valueProblem(definition, answer.value);
    if (problem) throw invalid(answer.customFieldId, problem);
    const localizedValue = optionInLanguages(definition, answer.value.trim());
    return {
      ...answer,
      ...(localizedValue ? { localizedValue } : {}),
      value: answer.value.trim(),
      name: definition.name,
      type: definition.type,
      localizedName: definition.localizedName,
      location: definition.location,
      sort: answer.sort ?? definition.sort,
    };
  });
  if (requireAll) {
    for (const definition of known.values()) {
      if (definition.location !== location || !definition.required) continue;
      if (asked !== null && !asked.includes(definition.id)) continue;
      const answer = resolved.find((a) => a.customFieldId === definition.id);
      if (!isAnswered(definition, answer?.value)) throw invalid(definition.id, 'required');
    }
  }
  return resolved.sort((a, b) => (a.sort ?? 0) - (b.sort ?? 0));
}

/** The fields a visitor is asked (a visitor type's list); null: every one of the company's. */
export type AskedFields = readonly string[] | null;

export interface AnswerSets<T> {
  customFields: T;
  questionnaireFields: T;
  feedbacks: T;
}

const locations: AnswerSets<CustomFieldLocation> = {
  customFields: 'FIELD',
  questionnaireFields: 'QUESTIONNAIRE',
  feedbacks: 'FEEDBACK',
};

/**
 * The answers of a check-in, checked and completed. At check-in (`checkin`) the required fields and questionnaire
 * questions the visitor is asked (`asked`: their type's) must be answered (feedback comes later); on an update,
 * each list that is sent replaces the stored one and must answer its required definitions, and a list not sent
 * stays as it is (undefined). `waived`: the front desk let the visitor in without the missing answers (the answers
 * given are still checked). A replayed check-in's answers (`replay`) were checked and completed by the kiosk that
 * took them: they are kept as they are.
 */
export async function checkinAnswers(
  ctx: Context,
  caller: Caller,
  input: Partial<AnswerSets<readonly AnswerItem[] | undefined>>,
  mode: 'checkin' | 'waived' | 'update' | 'replay',
  asked: AskedFields = null,
): Promise<Partial<AnswerSets<readonly AnswerItem[]>>> {
  if (mode === 'replay') return input;
  const known = await definitions(ctx, caller);
  const resolved: Partial<AnswerSets<ResolvedAnswer[]>> = {};
  for (const key of Object.keys(locations) as (keyof AnswerSets<unknown>)[]) {
    const answers = input[key];
    if (mode === 'update' && answers === undefined) continue;
    const requireAll = mode === 'update' || (mode === 'checkin' && key !== 'feedbacks');
    resolved[key] = resolveAnswers(known, answers ?? [], locations[key], requireAll, mode === 'update' ? null : asked);
  }
  return resolved;
}

/** The required fields and questions of a check-in left unanswered (what a waiver lets pass), by id. */
export async function unansweredRequired(
  ctx: Context,
  caller: Caller,
  answers: Partial<AnswerSets<readonly AnswerItem[]>>,
  asked: AskedFields,
): Promise<string[]> {
  const missing: string[] = [];
  for (const definition of (await definitions(ctx, caller)).values()) {
    if (!definition.required || definition.location === 'FEEDBACK') continue;
    if (asked !== null && !asked.includes(definition.id)) continue;
    const list = definition.location === 'FIELD' ? answers.customFields : answers.questionnaireFields;
    const answer = list?.find((a) => a.customFieldId === definition.id);
    if (!isAnswered(definition, answer?.value)) missing.push(definition.id);
  }
  return missing;
}

/** Keeps the answers whose definition still exists: an invitee registered before a field was deleted. */
export async function liveAnswers(ctx: Context, caller: Caller, answers: readonly AnswerItem[]): Promise<AnswerItem[]> {
  const known = await definitions(ctx, caller);
  return answers.filter((answer) => known.has(answer.customFieldId));
}

/** An invitee's Custom Field Objects (`id`, `value`) checked like check-in answers and given their name and type. */
export async function resolveCustomFieldObjects(
  ctx: Context,
  caller: Caller,
  fields: readonly { id: string; value?: string | null | undefined }[],
): Promise<{ id: string; name: string; type: CustomFieldType; value: string }[]> {
  const answers = fields.map((field) => ({ customFieldId: field.id, value: field.value ?? '' }));
  return resolveAnswers(await definitions(ctx, caller), answers, 'FIELD', false).map((answer) => ({
    id: answer.customFieldId,
    name: answer.name,
    type: answer.type,
    value: answer.value,
  }));
}
