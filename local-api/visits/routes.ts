import { Router } from 'express';
import type { Context } from '../context.ts';
import { callerOf } from '../http/auth.ts';
import { missingId } from '../http/errors.ts';
import { validate } from '../http/fields.ts';
import { parseListQuery } from '../http/list-query.ts';
import {
  authorizationInput,
  checkoutInput,
  inviteeCheckinInput,
  visitCreateInput,
  visitInputCodes,
  visitUpdateInput,
} from './schema.ts';
import {
  authorizeVisit,
  checkinInvitee,
  checkinWalkIn,
  checkoutInvitee,
  checkoutVisit,
  deleteVisit,
  getVisit,
  listVisits,
  updateVisit,
  visitObject,
  visitObjects,
  visitQueryFields,
} from './store.ts';

/** GET /v1/visits pages as the vendor's public API does: 500 by default, 1000 at most. */
export const visitPaging = { defaultLimit: 500, maxLimit: 1000 };

export function visitRoutes(ctx: Context): Router {
  const router = Router();
  router.get('/visits', (req, res) => {
    const caller = callerOf(req);
    const query = parseListQuery(req.query, visitPaging, visitQueryFields);
    const visits = visitObjects(ctx, caller, listVisits(ctx, caller, query));
    res.json({ visits, size: visits.length });
  });
  router.post('/visits', (req, res) => {
    const caller = callerOf(req);
    const input = validate(visitCreateInput, req.body, visitInputCodes);
    res.json(visitObject(ctx, caller, checkinWalkIn(ctx, caller, input)));
  });
  router.patch('/visit/allow/:id', (req, res) => {
    const caller = callerOf(req);
    const input = validate(authorizationInput, req.body, visitInputCodes);
    res.json(visitObject(ctx, caller, authorizeVisit(ctx, caller, req.params.id, 'ALLOWED', input)));
  });
  router.patch('/visit/deny/:id', (req, res) => {
    const caller = callerOf(req);
    const input = validate(authorizationInput, req.body, visitInputCodes);
    res.json(visitObject(ctx, caller, authorizeVisit(ctx, caller, req.params.id, 'DENIED', input)));
  });
  router.patch('/visit/checkout/:id', (req, res) => {
    const caller = callerOf(req);
    const input = validate(checkoutInput, req.body, visitInputCodes);
    res.json(visitObject(ctx, caller, checkoutVisit(ctx, caller, req.params.id, input)));
  });
  router.post('/visit/inviteeCheckin/:inviteeId', (req, res) => {
    const caller = callerOf(req);
    const input = validate(inviteeCheckinInput, req.body, visitInputCodes);
    res.json(visitObject(ctx, caller, checkinInvitee(ctx, caller, req.params.inviteeId, input)));
  });
  router.post('/visit/inviteeCheckout/:inviteeId', (req, res) => {
    const caller = callerOf(req);
    const input = validate(checkoutInput, req.body, visitInputCodes);
    res.json(visitObject(ctx, caller, checkoutInvitee(ctx, caller, req.params.inviteeId, input)));
  });
  // Before `/visit/:id`, which would otherwise take `allow` in `/visit/allow/` for an id.
  router.all(
    ['/visit', '/visit/allow', '/visit/deny', '/visit/checkout', '/visit/inviteeCheckin', '/visit/inviteeCheckout'],
    missingId,
  );
  router.get('/visit/:id', (req, res) => {
    const caller = callerOf(req);
    res.json(visitObject(ctx, caller, getVisit(ctx, caller, req.params.id)));
  });
  router.patch('/visit/:id', (req, res) => {
    const caller = callerOf(req);
    const input = validate(visitUpdateInput, req.body, visitInputCodes);
    res.json(visitObject(ctx, caller, updateVisit(ctx, caller, req.params.id, input)));
  });
  router.delete('/visit/:id', (req, res) => {
    deleteVisit(ctx, callerOf(req), req.params.id);
    res.json({ success: true });
  });
  return router;
}
