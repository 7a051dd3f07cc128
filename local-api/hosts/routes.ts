import { Router } from 'express';
import type { Context } from '../context.ts';
import { callerOf } from '../http/auth.ts';
import { missingId } from '../http/errors.ts';
import { validate } from '../http/fields.ts';
import { parseListQuery } from '../http/list-query.ts';
import { hostCreateInput, hostInputCodes, hostUpdateInput } from './schema.ts';
import { createHost, deleteHost, getHost, hostObject, hostQueryFields, listHosts, updateHost } from './store.ts';

export const hostPaging = { defaultLimit: 500, maxLimit: 1000 };

export function hostRoutes(ctx: Context): Router {
  const router = Router();
  router.get('/hosts', (req, res) => {
    const caller = callerOf(req);
    const query = parseListQuery(req.query, hostPaging, hostQueryFields);
    const hosts = listHosts(ctx, caller, query).map((row) => hostObject(row, caller));
    res.json({ hosts, size: hosts.length });
  });
  router.post('/hosts', (req, res) => {
    const caller = callerOf(req);
    const input = validate(hostCreateInput, req.body, hostInputCodes);
    res.json(hostObject(createHost(ctx, caller, input), caller));
  });
  router.get('/host/:id', (req, res) => {
    const caller = callerOf(req);
    res.json(hostObject(getHost(ctx, caller, req.params.id), caller));
  });
  router.patch('/host/:id', (req, res) => {
    const caller = callerOf(req);
    const input = validate(hostUpdateInput, req.body, hostInputCodes);
    res.json(hostObject(updateHost(ctx, caller, req.params.id, input), caller));
  });
  router.delete('/host/:id', (req, res) => {
    deleteHost(ctx, callerOf(req), req.params.id);
    res.json({ success: true });
  });
  router.all('/host', missingId);
  return router;
}
