import { z } from 'zod';
import { timeZoneName } from './companies/schema.ts';
import type { Context } from './context.ts';
import { createCompanyForDevice, deviceEnrolment, enrolDevice, setFirstPin } from './device.ts';
import { ApiError } from './http/errors.ts';
import { type RouteSpec, route } from './http/routes.ts';
import { defaultTimeZone, formatInZone } from './rules/time.ts';
import { prepared } from './store/rows.ts';
import { syncState } from './sync/state.ts';

const tag = 'Device';

const companySummary = z.object({ id: z.string(), name: z.string(), createdAt: z.string(), enrolled: z.boolean() });

const deviceObject = z.object({
  companyId: z.string().nullable().describe('the company the kiosk serves; null before enrolment'),
  enrolledAt: z.string().nullable(),
  upstream: z.string().nullable().describe('the hub this device follows (GET /v1/sync/upstream has more)'),
});

/** What concerns the device and the whole service: the device owner's (an owner token), no company's. */
export function deviceRoutes(ctx: Context): RouteSpec[] {
  const zone = defaultTimeZone();
  const device = async () => {
    const enrolled = await deviceEnrolment(ctx);
    return {
      companyId: enrolled?.companyId ?? null,
      enrolledAt: enrolled ? formatInZone(enrolled.enrolledAt, zone) : null,
      upstream: (await syncState(ctx)).upstreamUrl,
    };
  };
  return [
    route({
      method: 'get',
      path: '/companies',
      access: 'owner',
      tag,
      summary: 'The companies this service holds, and which one its kiosk serves',
      response: z.object({ companies: z.array(companySummary), size: z.number().int() }),
      errors: [],
      handle: async () => {
        const enrolled = (await deviceEnrolment(ctx))?.companyId;
        const rows = (await prepared(
          ctx.db,
          'SELECT id, name, createdAt FROM companies WHERE deletedAt IS NULL ORDER BY createdAt, id',
        ).all()) as { id: string; name: string; createdAt: number }[];
        const companies = rows.map((row) => ({
          ...row,
          createdAt: formatInZone(row.createdAt, zone),
          enrolled: row.id === enrolled,
        }));
        return { companies, size: companies.length };
      },
    }),
    route({
      method: 'post',
      path: '/companies',
      access: 'owner',
      tag,
      summary:
        'Create a company: its admin key is answered once; a kiosk that serves none yet is enrolled to it (and ' +
        'its first PIN answered once)',
      body: z.object({ name: z.string().trim().min(1).max(200), timezone: timeZoneName().optional() }),
      response: z.object({ id: z.string(), apiKey: z.string(), enrolled: z.boolean(), pin: z.string().optional() }),
      errors: ['INVALID_PARAMETER'],
      handle: ({ body }) => createCompanyForDevice(ctx, body),
    }),
    route({
      method: 'get',
      path: '/device',
      access: 'owner',
      tag,
      summary: 'The company this device serves, since when, and the hub it follows',
      response: deviceObject,
      errors: [],
      handle: device,
    }),
    route({
      method: 'put',
      path: '/device/enrolment',
      access: 'owner',
      tag,
      summary:
        "Choose the company this device's kiosk serves: its page gets a new kiosk credential (a company without a " +
        'PIN gets its first one, answered once)',
      body: z.object({ companyId: z.string().min(1).max(64) }),
      response: deviceObject.extend({ pin: z.string().optional() }),
      errors: ['NOT_FOUND', 'MANAGED_BY_HUB'],
      handle: async ({ body }) => {
        const followed = (await syncState(ctx)).companyId;
        if (followed !== null && followed !== body.companyId) throw new ApiError('MANAGED_BY_HUB');
        await enrolDevice(ctx, body.companyId);
        const pin = await setFirstPin(ctx, body.companyId);
        return { ...(await device()), ...(pin ? { pin } : {}) };
      },
    }),
  ];
}
