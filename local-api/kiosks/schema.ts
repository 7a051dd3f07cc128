import { z } from 'zod';
import { clientIdPattern } from '../sync/schema.ts';

const time = () => z.string().nullable();

export const kioskObject = z.object({
  deviceId: z.string().describe("the device's own id (`sync_state.deviceId`), as it reports itself"),
  name: z.string().nullable().describe('the name given when it was paired'),
  self: z.boolean().describe('this service itself (a standalone kiosk, or a kiosk of a hub, answering for itself)'),
  state: z
    .enum(['online', 'offline', 'paired', 'standalone', 'connecting'])
    .describe(
      'online: heard from in the last 90 s; offline: not since; paired: enrolled, not heard from yet; standalone: ' +
        'this device follows no hub; connecting: this device has not reached its hub yet',
    ),
  enrolledAt: time(),
  lastSeenAt: time().describe('its last contact (a pull of the feed), to within 30 s'),
  pending: z.number().int().nullable().describe('its mutations not yet pushed, as of its last contact'),
  oldestPendingAt: time(),
  clockSkewMs: z.number().nullable().describe("the hub's clock minus the device's, as the device last measured it"),
  appVersion: z.string().nullable(),
  ownCredential: z.boolean().describe('whether it syncs with a `sync` credential (a pairing issues one)'),
  checkinById: z
    .string()
    .nullable()
    .describe(
      "what its check-ins carry as `checkinByIpadId` here, the visit log's `kiosk` filter: its sync credential's " +
        "id at a hub, its screen's credential's on a standalone kiosk; null when not known",
    ),
});

export const kiosksAnswer = z.object({ kiosks: z.array(kioskObject), size: z.number().int() });

export const pairInput = z.object({
  code: z.string().max(32).describe('the code the kiosk shows, as typed (case, spaces and dashes do not matter)'),
  name: z.string().max(100).optional().describe('a name for the kiosk, e.g. "Lobby, north door"'),
});

export const pairingQuery = z.object({
  deviceId: z.string().regex(clientIdPattern).describe("the kiosk's device id"),
});

export const newPairingAnswer = z.object({
  pairingId: z.string(),
  secret: z.string().describe('kept by the kiosk alone: it fetches its credential with it'),
  code: z.string().describe('8 characters, shown on the kiosk for an administrator to type in'),
  expiresAt: z.string(),
});

export const pairingStatusAnswer = z.object({
  status: z.enum(['waiting', 'expired', 'paired']),
  expiresAt: z.string().optional(),
  companyId: z.string().optional(),
  apiKey: z.string().optional().describe('paired: the sync credential, answered once'),
});

/** The header a kiosk sends its pairing's secret in (never in the URL, which logs keep). */
export const pairingSecretHeader = 'x-pairing-secret';
