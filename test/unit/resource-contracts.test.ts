import assert from 'node:assert/strict';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { test } from 'node:test';
import { z } from 'zod';
import { hostColumns, hostFields } from '../../local-api/hosts/contract.ts';
import { hostCreateInput, hostObjectSchema, hostUpdateInput } from '../../local-api/hosts/schema.ts';
import { hostQueryFields } from '../../local-api/hosts/store.ts';
import { nullableText } from '../../local-api/http/fields.ts';
import type { QueryFields } from '../../local-api/http/list-query.ts';
import { inviteeColumns, inviteeFields } from '../../local-api/invitees/contract.ts';
import { inviteeCreateInput, inviteeObjectSchema, inviteeUpdateInput } from '../../local-api/invitees/schema.ts';
import { inviteeQueryFields } from '../../local-api/invitees/store.ts';
import { nullableString, type RowOf } from '../../local-api/rules/resource-contract.ts';
import {
  gateFieldsOf,
  gateVisitorFields,
  personFields,
  visitorColumns,
  visitorDataFields,
  visitorFields,
  visitorQueryFields,
} from '../../local-api/visitors/contract.ts';
import { visitorObjectSchema } from '../../local-api/visitors/schema.ts';
import {
  deriveVisit,
  type VisitObject,
  visitColumns,
  visitDateFields,
  visitFields,
  visitOwnFields,
} from '../../local-api/visits/contract.ts';
import {
  visitCreateInput,
  visitObjectSchema,
  visitorInput,
  visitSyncFields,
  visitUpdateInput,
} from '../../local-api/visits/schema.ts';
import { visitQueryFields } from '../../local-api/visits/store.ts';
import type { Visit } from '../../renderer/src/types.ts';
import { testContext } from '../helpers/context.ts';
import { tempDir } from '../helpers/service.ts';

/*
 * The visit, the visitor, the host and the invitee are written once, in their contracts (docs/api.md, "Resource contracts").
 * These tests hold the contracts to the tables of both engines, to the lists the service spelled out by hand before
 * them, and show that a field added to a contract reaches every list derived from it.
 */

const person = ['name', 'email', 'phone', 'cpf', 'rg', 'document', 'company', 'position', 'sector', 'address'];
const sorted = (list: Iterable<string>) => [...list].sort();
const keys = (schema: z.ZodObject) => sorted(Object.keys(schema.shape));
const kindsOf = (fields: QueryFields) => Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.kind]));

interface Column {
  name: string;
  notnull: number;
  pk: number;
}

const postgresMigrations = new URL('../../local-api/store/migrations/postgres/', import.meta.url);

/**
 * A table's columns as PostgreSQL's migrations make them, read from their text: `CREATE TABLE` and each later
 * `ADD COLUMN`, but `rowid`, which stands in for SQLite's and which `SELECT *` leaves out (store/postgres.ts).
 */
function postgresColumns(table: string): Column[] {
  const sql = readdirSync(postgresMigrations)
    .sort()
    .map((file) => readFileSync(new URL(file, postgresMigrations), 'utf8'))
    .join('\n');
  const start = sql.indexOf(`CREATE TABLE ${table} (`) + `CREATE TABLE ${table} (`.length;
  let depth = 1;
  let end = start;
  while (depth > 0) {
    const char = sql[end++];
    if (char === '(') depth++;
    if (char === ')') depth--;
  }
  const definitions: string[] = [''];
  depth = 0;
  for (const char of sql.slice(start, end - 1)) {
    if (char === '(') depth++;
    if (char === ')') depth--;
    if (char === ',' && depth === 0) definitions.push('');
    else definitions[definitions.length - 1] += char;
  }
  const added = [...sql.matchAll(new RegExp(`ALTER TABLE ${table} ADD COLUMN ([^;]+);`, 'g'))].map((m) => m[1] ?? '');
  return [...definitions, ...added]
    .map((definition) => definition.trim())
    .filter((definition) => !/^(PRIMARY|UNIQUE|FOREIGN|CHECK|CONSTRAINT)\b/i.test(definition))
    .map((definition) => ({
      name: definition.split(/\s+/)[0] ?? '',
      notnull: /NOT NULL/i.test(definition) ? 1 : 0,
      pk: /PRIMARY KEY/i.test(definition) ? 1 : 0,
    }))
    .filter((column) => column.name !== 'rowid');
}

function assertColumns(fields: Readonly<Record<string, object>>, columns: readonly Column[], where: string) {
  assert.deepEqual(sorted(Object.keys(fields)), sorted(columns.map((c) => c.name)), where);
  const required = Object.entries(fields).flatMap(([name, spec]) => ('required' in spec ? [name] : []));
  const notNull = columns.filter((c) => c.notnull === 1 || c.pk === 1).map((c) => c.name);
  assert.deepEqual(sorted(required), sorted(notNull), where);
}

test('the contracts list every column of their tables on both engines, NOT NULL where they say required', async () => {
  const dataDir = tempDir();
  const ctx = await testContext({ dataDir });
  try {
    for (const [table, fields] of [
      ['visits', visitFields],
      ['visitors', visitorFields],
      ['hosts', hostFields],
      ['invitees', inviteeFields],
    ] as const) {
      assertColumns(
        fields,
        (await ctx.db.prepare(`PRAGMA table_info(${table})`).all()) as Column[],
        `${table} on SQLite`,
      );
      assertColumns(fields, postgresColumns(table), `${table} on PostgreSQL`);
    }
  } finally {
    await ctx.db.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the lists derived from the contracts are the ones the service spelled out before them', () => {
  assert.deepEqual(visitColumns, {
    booleans: ['isInsideCompany', 'heldAtDoor', 'isCanceled', 'rememberVisitor'],
    json: ['customFields', 'questionnaireFields', 'feedbacks'],
    times: [
      'createdAt',
      'updatedAt',
      'deletedAt',
      'expectedAt',
      'expectedOutAt',
      'checkinAt',
      'finishCheckinAt',
      'checkoutAt',
      'authorizedAt',
      'firstAccessAt',
      'timeToDelayVisit',
    ],
  });
  // The dates a client may give: the times above but the record's own stamps and the planned end.
  const recordKeeping = ['createdAt', 'updatedAt', 'deletedAt', 'expectedOutAt'];
  assert.deepEqual(
    visitDateFields,
    visitColumns.times.filter((name) => !recordKeeping.includes(name)),
  );
  const visitText = [
    ...person,
    ...['hostId', 'visitorTypeId', 'inviteeId', 'meetingId', 'cardNumber', 'notes', 'checkinType', 'checkoutType'],
    ...['visitorStatus', 'customHostName'],
  ];
  assert.deepEqual(kindsOf(visitQueryFields), {
    ...Object.fromEntries(visitText.map((name) => [name, 'text'])),
    checkinAt: 'timestamp',
    checkoutAt: 'timestamp',
    expectedAt: 'timestamp',
    isInsideCompany: 'boolean',
    heldAtDoor: 'boolean',
    authorizationStatus: 'text',
    hostName: 'text',
  });
  assert.deepEqual(visitQueryFields.authorizationStatus?.values, {
    waiting: 'AWAITING',
    allowed: 'ALLOWED',
    denied: 'DENIED',
  });
  const visitInput = [
    ...['id', 'hostId', 'visitorTypeId', 'checkinType', 'checkoutType', 'cardNumber', 'expectedAt', 'checkinAt'],
    ...['finishCheckinAt', 'checkoutAt', 'authorizedById', 'authorizedAt', 'authorizationVia', 'authorizationLink'],
    ...['authorizationStatus', 'visitorStatus', 'statusNote', 'checkinByHostId', 'checkoutByHostId'],
    ...['checkinByIpadId', 'checkoutByIpadId', 'notes', 'customHostName', 'meetingId', 'visitorId', 'userId'],
    ...['isCanceled', 'firstAccessAt', 'timeToDelayVisit', 'customFields', 'questionnaireFields', 'feedbacks'],
    'ndaSignature',
    'rememberVisitor',
  ];
  assert.deepEqual(keys(visitCreateInput.shape.visit), sorted([...visitInput, 'companyId']));
  assert.deepEqual(
    keys(visitUpdateInput.shape.visit.unwrap()),
    sorted(visitInput.filter((name) => !['id', 'checkoutAt', 'authorizationStatus', 'rememberVisitor'].includes(name))),
  );
  assert.deepEqual(keys(visitorInput), sorted(person));
  assert.deepEqual(sorted(visitSyncFields.walkIn), sorted(visitInput));
  assert.deepEqual(visitSyncFields.visitor, person);
  assert.deepEqual(visitSyncFields.inviteeCheckin, [
    ...['id', 'checkinAt', 'checkinType', 'checkinByIpadId', 'checkinByHostId', 'notes', 'customFields'],
    ...['questionnaireFields', 'ndaSignature'],
  ]);
  assert.deepEqual(visitSyncFields.checkout, ['checkoutAt', 'checkoutType', 'checkoutByHostId', 'checkoutByIpadId']);
  assert.deepEqual(visitSyncFields.authorization, ['authorizedById', 'authorizationVia']);
  assert.deepEqual(gateVisitorFields, person.slice(0, -1));
  assert.deepEqual(keys(visitObjectSchema), [
    ...sorted([
      ...visitText.filter((name) => name !== 'hostId' && name !== 'visitorTypeId'),
      ...['hostId', 'visitorTypeId', 'visitorId', 'issuanceToken', 'expectedAt', 'expectedOutAt', 'finishCheckinAt'],
      ...['authorizedById', 'authorizedAt', 'authorizationVia', 'authorizationLink', 'statusNote', 'checkinByHostId'],
      ...['checkoutByHostId', 'checkinByIpadId', 'checkoutByIpadId', 'userId', 'firstAccessAt', 'timeToDelayVisit'],
      ...['id', 'type', 'createdAt', 'updatedAt', 'checkinAt', 'checkoutAt', 'isInsideCompany', 'isCanceled', 'host'],
      ...['authorizationStatus', 'customFields', 'questionnaireFields', 'feedbacks', 'pictureUrl', 'ndaUrl'],
      ...['pictureSignedUrl', 'ndaSignedUrl', 'heldAtDoor', 'ndaSignature', 'rememberVisitor'],
    ]),
  ]);

  assert.deepEqual(visitorDataFields, person);
  assert.deepEqual(visitorColumns, {
    booleans: ['rememberConsent'],
    json: [],
    times: ['createdAt', 'updatedAt', 'deletedAt', 'lastVisitAt', 'rememberConsentAt'],
  });
  assert.deepEqual(kindsOf(visitorQueryFields), {
    id: 'text',
    ...Object.fromEntries(person.map((name) => [name, 'text'])),
    createdAt: 'timestamp',
    updatedAt: 'timestamp',
    deletedAt: 'timestamp',
    lastVisitAt: 'timestamp',
    visitCount: 'number',
    rememberConsent: 'boolean',
    rememberConsentAt: 'timestamp',
  });
  assert.deepEqual(
    keys(visitorObjectSchema),
    sorted([
      ...['id', 'createdAt', 'updatedAt', 'deletedAt', ...person, 'lastVisitAt', 'visitCount', 'type'],
      ...['rememberConsent', 'rememberConsentAt', 'lastHostId'],
    ]),
  );
});

test("the host's derived lists are the ones the service spelled out before its contract", () => {
  const flags = [
    ...['isActive', 'preCheckinNotifications', 'isPhoneValid', 'sendInvitationEmail', 'deliveryNotification'],
    ...['allowCredentialing', 'canAuthorizeAllCredentialing', 'disableMeetingCreation', 'spaceManagementEnabled'],
  ];
  assert.deepEqual(hostColumns, {
    booleans: flags,
    json: ['additionalEmails', 'additionalPhones', 'metadata', 'mifareCardNumber'],
    times: ['createdAt', 'updatedAt', 'deletedAt'],
  });
  const texts = [
    ...['id', 'name', 'email', 'role', 'pictureUrl', 'pictureThumbUrl', 'position', 'sector', 'cpf', 'phone'],
    ...['countryCode', 'message', 'defaultMeetingLocationId', 'defaultMeetingTypeId', 'userId', 'createdById'],
    ...['zoneId', 'invenziId'],
  ];
  assert.deepEqual(
    Object.fromEntries(Object.entries(hostQueryFields).map(([name, field]) => [name, [field.kind, field.column]])),
    {
      ...Object.fromEntries(texts.map((name) => [name, ['text', undefined]])),
      ...Object.fromEntries(flags.map((name) => [name, ['boolean', undefined]])),
      ...Object.fromEntries(['createdAt', 'updatedAt', 'deletedAt'].map((name) => [name, ['timestamp', undefined]])),
      company: ['text', 'companyId'],
    },
  );
  const written = [
    ...texts.filter((name) => name !== 'id'),
    ...flags.filter((name) => name !== 'isPhoneValid'),
    ...['additionalEmails', 'additionalPhones', 'metadata', 'mifareCardNumber', 'resendInvitationEmail'],
  ];
  assert.deepEqual(keys(hostCreateInput), sorted(written));
  assert.deepEqual(keys(hostUpdateInput), sorted(written));
  assert.deepEqual(
    keys(hostObjectSchema),
    sorted(
      [...texts, ...flags, 'additionalEmails', 'additionalPhones', 'metadata', 'mifareCardNumber'].concat([
        'createdAt',
        'updatedAt',
        'deletedAt',
        'companyId',
        'company',
        'type',
      ]),
    ),
  );
});

test("the invitee's derived lists are the ones the service spelled out before its contract", () => {
  assert.deepEqual(inviteeColumns, {
    booleans: ['requiresAuthorization'],
    json: ['customFields', 'questionnaireFields'],
    times: ['createdAt', 'updatedAt', 'deletedAt', 'expectedAt', 'registeredAt'],
  });
  assert.deepEqual(kindsOf(inviteeQueryFields), {
    ...Object.fromEntries([...person, 'hostId', 'visitorTypeId', 'status', 'hostName'].map((name) => [name, 'text'])),
    expectedAt: 'timestamp',
    cardNumber: 'number',
  });
  const statuses = ['confirmed', 'arrived', 'canceled'];
  assert.deepEqual(inviteeQueryFields.status?.values, Object.fromEntries(statuses.map((status) => [status, status])));
  const written = [
    ...person,
    ...['expectedAt', 'hostId', 'visitorTypeId', 'status', 'lang', 'pictureUrl', 'customFields', 'cardNumber'],
    ...['notes', 'requiresAuthorization'],
  ];
  // Not a field: whether the write sends the invitation e-mail.
  assert.deepEqual(keys(inviteeCreateInput), sorted([...written, 'sendInvitationEmail']));
  assert.deepEqual(keys(inviteeUpdateInput), sorted([...written, 'sendInvitationEmail']));
  assert.deepEqual(
    keys(inviteeObjectSchema),
    sorted([
      ...[...written, 'id', 'type', 'createdAt', 'updatedAt', 'meetingId', 'pictureSignedUrl', 'host', 'meeting'],
      // Shown, never written through the API: when the guest answered the pre-registration page.
      'registeredAt',
    ]),
  );
});

test('a field added to the visit contract reaches every list derived from it', () => {
  const badgeColor = {
    storage: 'text',
    shown: nullableString(),
    input: nullableText(20),
    query: true,
  } as const;
  const arrivedBy = { storage: 'time', shown: nullableString(), input: z.string().nullable(), update: false } as const;
  const derived = deriveVisit({ ...visitOwnFields, badgeColor, arrivedBy });

  assert.ok(Object.hasOwn(derived.fields, 'badgeColor'));
  assert.ok(Object.hasOwn(derived.objectShape, 'badgeColor'), 'the visit object shows it');
  assert.ok(Object.hasOwn(derived.createShape, 'badgeColor'), 'a check-in writes it');
  assert.ok(Object.hasOwn(derived.updateShape, 'badgeColor'), 'an update writes it');
  assert.ok(Object.hasOwn(derived.createShape, 'arrivedBy') && !Object.hasOwn(derived.updateShape, 'arrivedBy'));
  assert.equal(derived.queryFields.badgeColor?.kind, 'text', 'a list is queryable by it');
  assert.equal(derived.queryFields.arrivedBy, undefined, 'not queryable unless it says so');
  assert.ok(derived.recordFields.includes('badgeColor'), "the kiosk's record of a check-in carries it to the hub");
  assert.ok(derived.columns.times.includes('arrivedBy') && derived.dateFields.includes('arrivedBy'));
  assert.ok(!derived.columns.times.includes('badgeColor'));

  // The types follow: these lines do not compile without the field (npm run typecheck).
  const row: Pick<RowOf<typeof derived.fields>, 'badgeColor' | 'arrivedBy'> = { badgeColor: 'red', arrivedBy: 1 };
  const shown: Pick<z.output<z.ZodObject<typeof derived.objectShape>>, 'badgeColor'> = { badgeColor: null };
  assert.deepEqual([row.badgeColor, shown.badgeColor], ['red', null]);

  const withPlate = {
    ...personFields,
    plate: { storage: 'text', shown: nullableString(), input: nullableText(10) },
  } as const;
  assert.deepEqual(gateFieldsOf(withPlate), [...person.slice(0, -1), 'plate'], "the gate callback's visitor has it");
});

test("the page's visit type is the contract's", () => {
  const visit: Visit = {
    id: 'a5a1c6b2-3c4d-4e5f-8a9b-0c1d2e3f4a5b',
    name: 'Bruno Lima',
    company: null,
    host: { id: 'h', name: 'Ana', email: 'ana@acme.test', type: 'host' },
    checkinAt: '2026-11-22T10:00:00-03:00',
    checkoutAt: null,
    isInsideCompany: true,
    authorizationStatus: 'waiting',
    visitorStatus: null,
    pictureUrl: null,
    ndaUrl: null,
    cardNumber: '12',
  };
  const fromService: Pick<VisitObject, 'authorizationStatus' | 'host'> = visit;
  assert.equal(fromService.authorizationStatus, 'waiting');
  // @ts-expect-error: the visit object's authorization is one of its three lower-case values
  const wrong: Visit['authorizationStatus'] = 'AWAITING';
  assert.equal(wrong, 'AWAITING');
});
