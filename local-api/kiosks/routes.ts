import type { Context } from '../context.ts';
import type { Caller } from '../credentials/caller.ts';
import { ApiError } from '../http/errors.ts';
import { sharedFailureLimiter } from '../http/rate-limit.ts';
import { type RouteSpec, route } from '../http/routes.ts';
import { formatInZone } from '../rules/time.ts';
import { clientIdPattern } from '../sync/schema.ts';
import { claimPairing, openPairing, pairingOpenLimits, pairingStatus } from './pairing.ts';
import {
  kiosksAnswer,
  newPairingAnswer,
  pairInput,
  pairingQuery,
  pairingSecretHeader,
  pairingStatusAnswer,
} from './schema.ts';
import { type KioskEntry, listKiosks } from './store.ts';

const tag = 'Kiosks';

const iso = (ms: number) => new Date(ms).toISOString();

function kioskShown(entry: KioskEntry, caller: Caller) {
  const shown = (ms: number | null) => (ms === null ? null : formatInZone(ms, caller.timeZone));
  return {
    ...entry,
    enrolledAt: shown(entry.enrolledAt),
    lastSeenAt: shown(entry.lastSeenAt),
    oldestPendingAt: shown(entry.oldestPendingAt),
  };
}

/** The console's Kiosks page (docs/console.md, "Kiosks") and enrolment by pairing code (docs/sync.md, "Pairing"). */
export function kioskDeviceRoutes(ctx: Context): RouteSpec[] {
  const openings = sharedFailureLimiter(ctx, 'kiosk-pairing-open', pairingOpenLimits);
  return [
    route({
      method: 'get',
      path: '/kiosks',
      tag,
      summary: "The company's kiosk devices: last contact, sync state, unpushed mutations, clock offset, version",
      response: kiosksAnswer,
      errors: [],
      handle: async ({ caller }) => {
        const kiosks = (await listKiosks(ctx, caller)).map((entry) => kioskShown(entry, caller));
        return { kiosks, size: kiosks.length };
      },
    }),
    route({
      method: 'post',
      path: '/kiosks/pair',
      tag,
      summary:
        "Enrol the kiosk showing this pairing code to the caller's company: it gets a sync credential of its own " +
        '(10 wrong codes per 10 minutes at most)',
      body: pairInput,
      response: kiosksAnswer.shape.kiosks.element,
      errors: ['INVALID_PAIRING_CODE', 'TOO_MANY_REQUESTS'],
      handle: async ({ caller, body }) => {
        const { deviceId } = await claimPairing(ctx, caller, body);
        const entry = (await listKiosks(ctx, caller)).find((kiosk) => kiosk.deviceId === deviceId);
        if (!entry) throw new ApiError('INTERNAL');
        return kioskShown(entry, caller);
      },
    }),
    route({
      method: 'post',
      path: '/kiosks/pairing',
      access: 'public',
      tag,
      summary:
        'A fresh kiosk asks for a pairing code to show (and a secret to keep); the code lives 10 minutes (20 codes ' +
        'per address per 10 minutes)',
      query: pairingQuery,
      response: newPairingAnswer,
      errors: ['INVALID_PARAMETER', 'TOO_MANY_REQUESTS'],
      handle: async ({ req }) => {
        const deviceId = req.query.deviceId;
        if (typeof deviceId !== 'string' || !clientIdPattern.test(deviceId)) {
          throw new ApiError('INVALID_PARAMETER', { field: 'deviceId' });
        }
        const wait = await openings.takeAttempt(req.ip ?? 'unknown');
        if (wait > 0) throw new ApiError('TOO_MANY_REQUESTS', { retryAfter: Math.ceil(wait / 1000) });
        const pairing = await openPairing(ctx, deviceId);
        return { ...pairing, expiresAt: iso(pairing.expiresAt) };
      },
    }),
    route({
      method: 'get',
      path: '/kiosks/pairing/:id',
      access: 'public',
      tag,
      summary: `The kiosk's pairing, with its secret in the \`${pairingSecretHeader}\` header: waiting, expired, or paired (the credential, answered once)`,
      response: pairingStatusAnswer,
      errors: ['NOT_FOUND'],
      handle: async ({ req, params }) => {
        const secret = req.get(pairingSecretHeader);
        if (!secret || secret.length > 200) throw new ApiError('NOT_FOUND');
        const status = await pairingStatus(ctx, String(params.id), secret);
        return status.status === 'waiting' ? { ...status, expiresAt: iso(status.expiresAt) } : status;
      },
    }),
  ];
}
