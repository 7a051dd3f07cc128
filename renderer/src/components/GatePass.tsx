import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Api, ApiProblem } from '../api.ts';
import type { KioskData } from '../kiosk-data.ts';
import { timeOfDay } from '../time.ts';
import { QrImage } from './QrImage.tsx';

/** A visit's gate code as the service answers it (GET /v1/kiosk/visit/:id/qrcode). */
export interface GateAnswer {
  payload: string;
  expiresAt: string | null;
  /** How long the code lasts from the answer, by the service's clock (the device's may be off). */
  expiresInMs: number | null;
}

/**
 * The visitor's code for the turnstile (access integration on): fetched from the service and fetched again as
 * each dynamic code expires. Undefined until it comes, and for good when the service refuses one (integration off,
 * visit not let in); an unreachable service is tried again. No path: nothing is fetched.
 */
export function useGateCode(api: Api, path: string | undefined): GateAnswer | undefined {
  const [code, setCode] = useState<GateAnswer>();
  useEffect(() => {
    if (!path) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current = true;
    const load = async () => {
      try {
        const answer = await api.optional<GateAnswer>(path);
        if (!current) return;
        setCode(answer);
        if (answer && answer.expiresInMs !== null) timer = setTimeout(load, Math.max(1000, answer.expiresInMs));
      } catch (error) {
        // A refusal (integration off, visit not let in) is final; only an unreachable service is tried again.
        if (current && !(error instanceof ApiProblem && error.status >= 400 && error.status < 500)) {
          timer = setTimeout(load, 5000);
        }
      }
    };
    void load();
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [api, path]);
  return code;
}

/** The gate code on the confirmation screen. */
export function GateCode({ code }: { code: GateAnswer | undefined }) {
  const { t } = useTranslation();
  if (!code) return null;
  return (
    <section className="gate-code" aria-label={t('outcome.gateCode')}>
      <h2>{t('outcome.gateCode')}</h2>
      <QrImage className="gate-qr" text={code.payload} label={t('outcome.gateCode')} />
      <p className="gate-hint">
        {t('outcome.gateHint')} {code.expiresAt && t('outcome.gateRenews')}
      </p>
    </section>
  );
}

/**
 * Whether the badge carries the gate code: where the service does not send it to the visitor's phone (no public
 * address, or no e-mail or SMS set up, or a visitor who gave neither), the printed badge is what the visitor takes
 * to the turnstile. A visit read without `gateCodeSent` (the desk's) follows the company's setting alone.
 */
export const gateCodeOnBadge = (data: KioskData, visit?: { gateCodeSent?: boolean }) =>
  data.accessEnabled && (!data.passLinks || visit?.gateCodeSent === false);

/**
 * The confirmation's step for the turnstile (access integration on): hold the code to the reader; where the code
 * is not sent to the visitor's phone, that it is not, and to keep the badge, which carries it (with no badge
 * printed: to ask the reception).
 */
export function GateNext({ data, visit }: { data: KioskData; visit: { gateCodeSent: boolean } }) {
  const { t } = useTranslation();
  if (!data.accessEnabled) return null;
  if (!gateCodeOnBadge(data, visit)) return <li>{t('outcome.gateNext')}</li>;
  return (
    <li className="gate-not-sent">{data.settings.badgePrinting ? t('pass.keepBadge') : t('pass.askReception')}</li>
  );
}

/** The gate code printed on the badge, with the time a dynamic code stops working. */
export function BadgeGateCode({ code, lang, timeZone }: { code: GateAnswer; lang: string; timeZone: string }) {
  const { t } = useTranslation();
  const until = code.expiresAt && timeOfDay(lang, timeZone, code.expiresAt);
  return (
    <figure className="badge-gate">
      <QrImage className="badge-qr" text={code.payload} label={t('pass.badgeQr')} />
      <figcaption>
        {t('pass.badgeGate')}
        {until && (
          <>
            <br />
            {t('pass.badgeUntil', { time: until })}
          </>
        )}
      </figcaption>
    </figure>
  );
}
