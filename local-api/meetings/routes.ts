import { z } from 'zod';
import type { Context } from '../context.ts';
import { roles } from '../credentials/caller.ts';
import { listQueryInput, parseListQuery } from '../http/list-query.ts';
import { listErrors, type RouteSpec, route, successSchema } from '../http/routes.ts';
import { meetingCreateInput, meetingInputCodes, meetingObjectSchema, meetingUpdateInput } from './schema.ts';
import {
  createMeeting,
  deleteMeeting,
  getMeeting,
  listMeetings,
  meetingObject,
  meetingObjects,
  meetingQueryFields,
  updateMeeting,
} from './store.ts';

export const meetingPaging = { defaultLimit: 500, maxLimit: 1000 };

const tag = 'Meetings';
const inputErrors = ['HOST_NOT_FOUND', 'INVALID_EMAIL', 'INVALID_PARAMETER'] as const;

export function meetingRoutes(ctx: Context): RouteSpec[] {
  return [
    route({
      method: 'get',
      path: '/meetings',
      roles: roles.guestReaders,
      tag,
      summary: 'List meetings',
      query: listQueryInput(meetingPaging),
      response: z.object({ meetings: z.array(meetingObjectSchema), size: z.number().int() }),
      errors: listErrors,
      handle: async ({ req, caller }) => {
        const rows = await listMeetings(ctx, caller, parseListQuery(req.query, meetingPaging, meetingQueryFields));
        const meetings = await meetingObjects(ctx, caller, rows);
        return { meetings, size: meetings.length };
      },
    }),
    route({
      method: 'post',
      path: '/meetings',
      roles: roles.inviters,
      tag,
      summary: 'Schedule a meeting: each guest becomes an invitee of its host, expected at its start',
      body: meetingCreateInput,
      fieldCodes: meetingInputCodes,
      response: meetingObjectSchema,
      errors: ['MISSING_HOST_ID', 'MISSING_EMAIL', ...inputErrors],
      handle: async ({ caller, body }) => await meetingObject(ctx, caller, await createMeeting(ctx, caller, body)),
    }),
    route({
      method: 'get',
      path: '/meeting/:id',
      roles: roles.guestReaders,
      tag,
      summary: 'Retrieve a meeting',
      response: meetingObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) =>
        await meetingObject(ctx, caller, await getMeeting(ctx, caller, String(params.id))),
    }),
    route({
      method: 'patch',
      path: '/meeting/:id',
      roles: roles.inviters,
      tag,
      summary: 'Update a meeting; its invitees move with it, removed guests are canceled, added ones invited',
      body: meetingUpdateInput,
      fieldCodes: meetingInputCodes,
      response: meetingObjectSchema,
      errors: ['NOT_FOUND', 'MISSING_ID', ...inputErrors],
      handle: async ({ caller, params, body }) =>
        await meetingObject(ctx, caller, await updateMeeting(ctx, caller, String(params.id), body)),
    }),
    route({
      method: 'delete',
      path: '/meeting/:id',
      roles: roles.inviters,
      tag,
      summary: 'Delete a meeting and cancel its invitees',
      response: successSchema,
      errors: ['NOT_FOUND', 'MISSING_ID'],
      handle: async ({ caller, params }) => {
        await deleteMeeting(ctx, caller, String(params.id));
        return { success: true };
      },
    }),
  ];
}
