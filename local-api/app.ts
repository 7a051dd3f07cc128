import express, { type RequestHandler, Router } from 'express';
import {
  gateCallbackHandler,
  gateCallbackKind,
  gateCallbackListener,
  gateCallbackRoutes,
} from './access/gate-callback.ts';
import { qrRoutes } from './access/qr-routes.ts';
import { accessConfigRoutes } from './access/routes.ts';
import { endAccountsOfInactive } from './accounts/events.ts';
import { accountMailKind, deliverAccountMail } from './accounts/mail.ts';
import { accountRoutes } from './accounts/routes.ts';
import { sessionFromCookie } from './accounts/sessions.ts';
import { visitHoursListener } from './analytics/hours.ts';
import { analyticsRoutes } from './analytics/routes.ts';
import { auditRoutes } from './audit/routes.ts';
import { auditListener } from './audit/store.ts';
import { blocklistRoutes } from './blocklist/routes.ts';
import { companyRoutes } from './companies/routes.ts';
import { consolePages } from './console/pages.ts';
import { consoleEventRoutes } from './console-events/routes.ts';
import type { Context } from './context.ts';
import { credentialRoutes } from './credentials/routes.ts';
import { principalForKey } from './credentials/store.ts';
import { customFieldRoutes } from './custom-fields/routes.ts';
import { deviceRoutes } from './device-routes.ts';
import type { EventListener, WriteRule } from './events.ts';
import { fileRoutes } from './files/routes.ts';
import { escalateOnCheckin, escalationHandler, escalationJobKind } from './host-replies/escalation.ts';
import { hostReplyPages } from './host-replies/pages.ts';
import { hostRoutes } from './hosts/routes.ts';
import { authenticate } from './http/auth.ts';
import { trustedProxies } from './http/client-address.ts';
import { errorHandler, notFound } from './http/error-handler.ts';
import { ApiError } from './http/errors.ts';
import { keyGuessCounter } from './http/key-guessing.ts';
import { bodyLimits, checkJsonCost, formParameterLimit, refuseDeclaredOver } from './http/limits.ts';
import { requestLog } from './http/request-log.ts';
import { keylessRouterOf, type RouteSpec, routerOf, takesJson, uploadRouterOf } from './http/routes.ts';
import { storageFullEpisodes } from './http/storage-full.ts';
import { invitationJobKind } from './invitations/queue.ts';
import { invitationRoutes } from './invitations/routes.ts';
import { deliverInvitation } from './invitations/send.ts';
import { inviteeRoutes } from './invitees/routes.ts';
import { kioskPages } from './kiosk/pages.ts';
import { kioskRoutes } from './kiosk/routes.ts';
import { kioskVisitorRoutes } from './kiosk/visitor-routes.ts';
import { kioskDeviceRoutes } from './kiosks/routes.ts';
import { logoRoutes } from './logo/routes.ts';
import { meetingRoutes } from './meetings/routes.ts';
import { deliverNotification, notifyOnCheckin } from './notifications/delivery.ts';
import { planReminders, reminderJobKind, remindHost } from './notifications/reminders.ts';
import { notificationRoutes } from './notifications/routes.ts';
import { notificationJobKind } from './notifications/settings.ts';
import { openApiRoutes } from './openapi/routes.ts';
import type { Cidr } from './outgoing/destinations.ts';
import { passMessageHandler, passMessageKind, passMessageListener } from './pass/message.ts';
import { passPages } from './pass/page.ts';
import { privacyRoutes } from './privacy/routes.ts';
import { type PublicPages, publicRouter } from './public/page.ts';
import type { JobHandler } from './queue/queue.ts';
import { registerPages } from './registration/routes.ts';
import { deliverReturningCode } from './returning/delivery.ts';
import { returningRoutes } from './returning/routes.ts';
import { returningCodeJobKind } from './returning/store.ts';
import { rosterRoutes } from './roster/routes.ts';
import { rosterCheckRoutes } from './roster-check/routes.ts';
import { hubManagedRule, syncListener } from './sync/listener.ts';
import { syncRoutes } from './sync/routes.ts';
import { todayRoutes } from './today/routes.ts';
import { visitLogRoutes } from './visit-log/routes.ts';
import { visitorTypeRoutes } from './visitor-types/routes.ts';
import { visitorRoutes } from './visitors/routes.ts';
import { visitRoutes } from './visits/routes.ts';
import { webhookDeliveryHandler, webhookJobKind, webhookListener } from './webhooks/events.ts';
import { webhookRoutes } from './webhooks/routes.ts';

const acceptedBody = /^application\/(([a-z.+-]*\+)?json|x-www-form-urlencoded)\b/i;

/** A body must be JSON or form-encoded, and an object: anything else is refused before a handler sees it. */
const requireObjectBody: RequestHandler = (req, _res, next) => {
  const hasBody = Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined;
  if (hasBody && !acceptedBody.test(req.headers['content-type'] ?? '')) {
    throw new ApiError('UNSUPPORTED_MEDIA_TYPE');
  }
  if (req.body === undefined) req.body = {};
  if (typeof req.body !== 'object' || req.body === null || Array.isArray(req.body)) {
    throw new ApiError('INVALID_BODY');
  }
  next();
};

/** Every /v1 endpoint, by resource: mounted behind authentication and described in the OpenAPI document. */
export function v1Routes(ctx: Context): RouteSpec[] {
  return [
    ...companyRoutes(ctx),
    ...hostRoutes(ctx),
    ...accountRoutes(ctx),
    ...meetingRoutes(ctx),
    ...inviteeRoutes(ctx),
    ...invitationRoutes(ctx),
    ...visitRoutes(ctx),
    ...visitorRoutes(ctx),
    ...customFieldRoutes(ctx),
    ...visitorTypeRoutes(ctx),
    ...blocklistRoutes(ctx),
    ...notificationRoutes(ctx),
    ...fileRoutes(ctx),
    ...accessConfigRoutes(ctx),
    ...syncRoutes(ctx),
    ...qrRoutes(ctx),
    ...gateCallbackRoutes(ctx),
    ...webhookRoutes(ctx),
    ...privacyRoutes(ctx),
    ...auditRoutes(ctx),
    ...kioskRoutes(ctx),
    ...kioskVisitorRoutes(ctx),
    ...returningRoutes(ctx),
    ...credentialRoutes(ctx),
    ...deviceRoutes(ctx),
    ...rosterRoutes(ctx),
    ...rosterCheckRoutes(ctx),
    ...todayRoutes(ctx),
    ...consoleEventRoutes(ctx),
    ...visitLogRoutes(ctx),
    ...kioskDeviceRoutes(ctx),
    ...analyticsRoutes(ctx),
    ...logoRoutes(ctx),
    ...openApiRoutes(() => v1Routes(ctx)),
  ];
}

/** Handlers of the durable job queue, by job kind; each feature that sends something outside registers here. */
export function jobHandlers(ctx: Context): Record<string, JobHandler> {
  return {
    [gateCallbackKind]: gateCallbackHandler(ctx),
    [webhookJobKind]: webhookDeliveryHandler(ctx),
    [notificationJobKind]: deliverNotification(ctx),
    [reminderJobKind]: remindHost(ctx),
    [escalationJobKind]: escalationHandler(ctx),
    [passMessageKind]: passMessageHandler(ctx),
    [invitationJobKind]: deliverInvitation(ctx),
    [returningCodeJobKind]: deliverReturningCode(ctx),
    [accountMailKind]: deliverAccountMail(ctx),
  };
}

/** Listeners of the domain events (check-ins, updates…), run inside the transaction of the write. */
export function eventListeners(ctx: Context): EventListener[] {
  return [
    syncListener(ctx),
    gateCallbackListener(ctx),
    webhookListener(ctx),
    auditListener(ctx),
    notifyOnCheckin(ctx),
    planReminders(ctx),
    escalateOnCheckin(ctx),
    passMessageListener(ctx),
    endAccountsOfInactive(ctx),
    visitHoursListener(ctx),
  ];
}

/**
 * The pages people outside open from links in messages (`/p/...`, docs/api.md, "Public pages"): no key, a signed
 * link instead. Each feature with such a page adds its router here.
 */
export function publicPages(ctx: Context): PublicPages[] {
  return [hostReplyPages(ctx), registerPages(ctx), passPages(ctx)];
}

/** The rules every write is decided by before it runs (`ctx.events.decide`). */
export function writeRules(ctx: Context): WriteRule[] {
  return [hubManagedRule(ctx)];
}

/** The service as an Express app, without listening: tests and the CLI choose where it listens. */
export function createApp(
  ctx: Context,
  extra: {
    before?: Router[];
    /** Proxies whose X-Forwarded-For names the client (`serve --trust-proxy`). */
    trustProxy?: readonly Cidr[];
  } = {},
): express.Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('etag', false);
  app.set('trust proxy', trustedProxies(extra.trustProxy ?? []));
  for (const router of extra.before ?? []) app.use(router);
  app.use('/p', publicRouter(publicPages(ctx)));
  app.use(kioskPages(ctx));
  app.use(consolePages());
  const v1 = Router();
  v1.use(requestLog(ctx.log));
  const storage = storageFullEpisodes({
    error: (message) => ctx.log.error(message),
    info: (message) => ctx.log.info(message),
  });
  v1.use(storage.watchWrites);
  const routes = v1Routes(ctx);
  // Express would answer OPTIONS itself, in plain text (any router with a route on the path, the keyless one
  // included); there is no CORS here, so it is one more unknown route.
  v1.options('/{*path}', notFound);
  // The OpenAPI document and signed file links need no key.
  v1.use(keylessRouterOf(routes));
  // Credentials first: a client without a key cannot make the service read a body at all.
  v1.use(
    authenticate(
      async (key) => await principalForKey(ctx, key),
      keyGuessCounter(ctx),
      (address, keyPrefixes) => ctx.log.warn({ address, keyPrefixes }, 'too many wrong API keys: locked'),
      sessionFromCookie(ctx),
    ),
  );
  // Pictures and PDFs sent as themselves: read as bytes up to their own limits, never parsed.
  v1.use(uploadRouterOf(routes));
  // A body's cost is bounded before it is parsed (docs/reliability.md, "Limits").
  v1.use(refuseDeclaredOver(bodyLimits.maxBytes));
  v1.use(
    express.json({
      limit: bodyLimits.maxBytes,
      type: ['application/json', 'application/*+json'],
      verify: (_req, _res, bytes) => checkJsonCost(bytes),
    }),
  );
  v1.use(express.urlencoded({ extended: true, limit: bodyLimits.maxBytes, parameterLimit: formParameterLimit }));
  v1.use(requireObjectBody);
  v1.use(routerOf(routes.filter(takesJson)));
  app.use('/v1', v1);
  app.use(notFound);
  app.use(errorHandler((message, error) => ctx.log.error({ err: error }, message), storage));
  return app;
}
