import { Router } from 'express';
import type { Context } from '../context.ts';
import { callerOf } from '../http/auth.ts';
import { missingId } from '../http/errors.ts';
import { validate } from '../http/fields.ts';
import { parseListQuery } from '../http/list-query.ts';
import { inviteeCreateInput, inviteeInputCodes, inviteeUpdateInput } from './schema.ts';
import {
  createInvitee,
  deleteInvitee,
  getInvitee,
  inviteeObject,
  inviteeObjects,
  inviteeQueryFields,
  listInvitees,
  updateInvitee,
} from './store.ts';

export const inviteePaging = { defaultLimit: 500, maxLimit: 2000 };

export function inviteeRoutes(ctx: Context): Router {
  const router = Router();
  router.get('/invitees', (req, res) => {
    const caller = callerOf(req);
    const query = parseListQuery(req.query, inviteePaging, inviteeQueryFields);
    const invitees = inviteeObjects(ctx, caller, listInvitees(ctx, caller, query));
    res.json({ invitees, size: invitees.length });
  });
  router.post('/invitees', (req, res) => {
    const caller = callerOf(req);
    const input = validate(inviteeCreateInput, req.body, inviteeInputCodes);
    res.json(inviteeObject(ctx, caller, createInvitee(ctx, caller, input)));
  });
  router.get('/invitee/:id', (req, res) => {
    const caller = callerOf(req);
    res.json(inviteeObject(ctx, caller, getInvitee(ctx, caller, req.params.id)));
  });
  router.patch('/invitee/:id', (req, res) => {
    const caller = callerOf(req);
    const input = validate(inviteeUpdateInput, req.body, inviteeInputCodes);
    res.json(inviteeObject(ctx, caller, updateInvitee(ctx, caller, req.params.id, input)));
  });
  router.delete('/invitee/:id', (req, res) => {
    deleteInvitee(ctx, callerOf(req), req.params.id);
    res.json({ success: true });
  });
  router.all('/invitee', missingId);
  return router;
}
