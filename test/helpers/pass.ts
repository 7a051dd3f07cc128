import assert from 'node:assert/strict';
import { type ParsedMail, simpleParser } from 'mailparser';
import { readQrDataUri } from './qr.ts';
import type { TestSmtp } from './smtp.ts';

/**
 * The pass link of the e-mail sent to `address` (parsed as a mail client would), once it has arrived, and the
 * mail. `publicUrl` is the address the service was given (`--public-url`): the link must point there.
 */
export async function passLinkTo(
  smtp: TestSmtp,
  address: string,
  publicUrl: string,
): Promise<{ link: string; mail: ParsedMail }> {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const received = smtp.mails.find((mail) => mail.to.includes(address));
    if (received) {
      const mail = await simpleParser(received.raw);
      const link = new RegExp(`${publicUrl}/p/pass/[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+`).exec(mail.text ?? '')?.[0];
      assert.ok(link, `a pass link in: ${mail.text}`);
      return { link, mail };
    }
    if (Date.now() > deadline) throw new Error(`no mail to ${address}: ${smtp.mails.map((m) => m.to).join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The pass page at `path` of the service at `baseUrl`, as a phone gets it: the code its QR picture shows, the
 * code's text, the seconds after which it reloads itself.
 */
export async function openPass(baseUrl: string, path: string, lang = 'en') {
  const response = await fetch(baseUrl + path, { headers: { 'accept-language': lang } });
  const html = await response.text();
  const picture = /<img class="qr" src="([^"]+)"/.exec(html)?.[1];
  const refresh = /<meta http-equiv="refresh" content="(\d+)">/.exec(html)?.[1];
  return {
    status: response.status,
    headers: response.headers,
    html,
    code: picture === undefined ? undefined : readQrDataUri(picture),
    text: /<p class="code">([^<]+)<\/p>/.exec(html)?.[1],
    refreshSeconds: refresh === undefined ? undefined : Number(refresh),
  };
}
