import { z } from 'zod';

/** An entry of the audit log as `GET /v1/audit` answers it (docs/reliability.md, "Audit log"). */
export const auditEntrySchema = z.object({
  id: z.number().int(),
  type: z.literal('audit'),
  at: z.string(),
  action: z.string(),
  objectType: z.string().nullable(),
  objectId: z.string().nullable(),
  actorHostId: z.string().nullable(),
  actorCredentialId: z.string().nullable(),
  actorRole: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  actorLabel: z.string().nullable().describe("the label of the credential that acted (an API key's, a session's)"),
  actorHostName: z.string().nullable().describe('the name of the host the entry names as having acted'),
});
