import { randomBytes } from 'node:crypto';
import { type LinkPurpose, signLink } from '../../local-api/public/links.ts';
import { loadDeviceKey, secretBox } from '../../local-api/secrets/box.ts';
import type { TestService } from './service.ts';
import { withServiceDb } from './store.ts';

/**
 * A link of a running service's company, signed as `publicLink` signs it (local-api/public/links.ts), with the
 * company's key read from the service's database and opened with its device key: what a message would carry.
 * Relative to the service's own address, where the test reaches it. The company's notification settings must have
 * been saved once (they make the key).
 */
export async function signedLink(
  service: TestService,
  companyId: string,
  input: { purpose: LinkPurpose; subjectId: string; expiresAt: number },
): Promise<string> {
  const sealed = (await withServiceDb(service.dataDir, async (db) =>
    db.prepare('SELECT linkKey FROM notification_settings WHERE companyId = ?').pluck().get(companyId),
  )) as string | undefined;
  if (!sealed) throw new Error('the company has no link key: save its notification settings first');
  const key = Buffer.from(secretBox(loadDeviceKey(service.dataDir)).open(sealed), 'base64url');
  const token = signLink(key, { companyId, ...input, nonce: randomBytes(9).toString('base64url') });
  return `${service.url}/p/${input.purpose}/${token}`;
}
