import type { Context } from '../context.ts';
import type { MailAttachment } from '../notifications/email.ts';
import { openLogo } from './store.ts';

/** The company's logo in an e-mail: where its HTML points, and the inline image it points at, if uploaded. */
export interface MailLogo {
  src: string;
  attachment?: MailAttachment;
}

const logoCid = 'logo@portaria';

/** A web address a message may link to as it is: http(s) only. */
export const webLink = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : undefined);

/**
 * The company's logo for its e-mails (invitations, account e-mails): the uploaded one as an inline image, a web
 * address as itself; none when it cannot be read.
 */
export async function companyLogo(ctx: Context, pictureUrl: string | null): Promise<MailLogo | undefined> {
  const uploaded = /^\/v1\/logo\/([0-9a-f]{32}\.(?:jpg|png))$/.exec(pictureUrl ?? '')?.[1];
  if (uploaded) {
    const file = await openLogo(ctx, uploaded).catch(() => undefined);
    if (!file) return undefined;
    const attachment = { filename: uploaded, content: file.bytes, contentType: file.mediaType, cid: logoCid };
    return { src: `cid:${logoCid}`, attachment };
  }
  const web = webLink(pictureUrl);
  return web ? { src: web } : undefined;
}
