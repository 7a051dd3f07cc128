import { Router } from 'express';
import type { Context } from '../context.ts';
import { callerOf } from '../http/auth.ts';
import { validate } from '../http/fields.ts';
import { accessConfigInput } from './schema.ts';
import { accessConfigObject, deleteAccessConfig, getAccessConfig, saveAccessConfig } from './store.ts';

export function accessConfigRoutes(ctx: Context): Router {
  const router = Router();
  router.get('/integration/access', (req, res) => {
    const caller = callerOf(req);
    res.json(accessConfigObject(getAccessConfig(ctx, caller), caller));
  });
  router.post('/integration/access', (req, res) => {
    const caller = callerOf(req);
    const input = validate(accessConfigInput, req.body);
    res.json(accessConfigObject(saveAccessConfig(ctx, caller, input), caller));
  });
  router.delete('/integration/access', (req, res) => {
    deleteAccessConfig(ctx, callerOf(req));
    res.json({ success: true });
  });
  return router;
}
