import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Api } from '../api.ts';
import { Badge } from '../components/Badge.tsx';
import { GateCode, GateNext, gateCodeOnBadge, useGateCode } from '../components/GatePass.tsx';
import { OutcomeMark } from '../components/OutcomeMark.tsx';
import { Screen, Spinner } from '../components/ui.tsx';
import { useCountdown } from '../hooks.ts';
import type { KioskData } from '../kiosk-data.ts';
import type { KioskVisit } from '../types.ts';

/**
 * How often and how long the screen asks how the visit goes (the host's decision, the message's delivery): every
 * second, so that a decision reaches the waiting visitor within 2 s of being made (docs/kiosk.md), for 5 minutes.
 */
export const authorizationPoll = { everyMs: 1000, times: 300 } as const;

/** The query that proves a visit is this screen's to read (`/v1/kiosk/visit/:id`, its gate code, its badge). */
export const receiptQuery = (receipt: string) => `?${new URLSearchParams({ receipt })}`;

interface Props {
  api: Api;
  data: KioskData;
  lang: string;
  visit: KioskVisit;
  picture: string | undefined;
  onHome: () => void;
}

/**
 * What a check-in ends with: the welcome and badge; a wait while the host decides, followed live; or, for a
 * visitor on the blocklist, denied or kept waiting too long, a calm request to see the reception that names no
 * reason. Each says only what happened: the host "has been notified" only once a channel confirmed the message
 * (followed live); when every channel failed, or none is set up, the visitor is asked to tell the reception.
 */
export function Outcome(props: Props) {
  const [visit, setVisit] = useState(props.visit);
  const [waitedTooLong, setWaitedTooLong] = useState(false);
  const waiting = visit.authorizationStatus === 'waiting' && visit.visitorStatus !== 'BLOCKED';
  // Followed live while the host's decision or the message's delivery is still open.
  const live = waiting || (visit.hostNotification === 'sending' && visit.visitorStatus !== 'BLOCKED');
  const visitPath = `/v1/kiosk/visit/${visit.id}${receiptQuery(visit.receipt)}`;

  useEffect(() => {
    if (!live) return;
    let polls = 0;
    const timer = setInterval(async () => {
      polls += 1;
      if (polls > authorizationPoll.times) {
        clearInterval(timer);
        if (waiting) setWaitedTooLong(true);
        return;
      }
      try {
        setVisit(await props.api.get<KioskVisit>(visitPath));
      } catch {
        // A missed poll is retried by the next one; the banner tells if the service is down.
      }
    }, authorizationPoll.everyMs);
    return () => clearInterval(timer);
  }, [live, waiting, props.api, visitPath]);

  const name = visit.name ?? '';
  if (visit.visitorStatus === 'BLOCKED') return <SeeReception name={name} reason="blocked" onHome={props.onHome} />;
  if (visit.authorizationStatus === 'denied') return <SeeReception name={name} reason="denied" onHome={props.onHome} />;
  if (waitedTooLong) return <SeeReception name={name} reason="late" onHome={props.onHome} />;
  if (waiting) return <Waiting visit={visit} onHome={props.onHome} />;
  return <Confirmed {...props} visit={visit} />;
}

function Waiting({ visit, onHome }: { visit: KioskVisit; onHome: () => void }) {
  const { t } = useTranslation();
  return (
    <Screen title={t('outcome.waitingTitle')} onCancel={onHome} className="outcome outcome-story">
      <OutcomeMark kind="waiting" />
      <p className="lead" role="status">
        {waitingText(visit, t)}
      </p>
      <p className="outcome-next">{t('outcome.waitingSeat')}</p>
      <Spinner label={t('outcome.waitingLive')} />
    </Screen>
  );
}

/** Who is asked, as far as it is true: "we're asking" while sending, "notified" once a channel confirmed it. */
function waitingText(visit: KioskVisit, t: ReturnType<typeof useTranslation>['t']): string {
  const host = visit.hostName;
  if (!host) return t('outcome.waitingReception');
  const text = {
    sending: 'outcome.waitingHost',
    notified: 'outcome.waitingNotified',
    failed: 'outcome.waitingFailed',
    none: 'outcome.waitingReception',
  } as const;
  return t(text[visit.hostNotification], { host });
}

const receptionText = {
  blocked: 'outcome.blockedText',
  denied: 'outcome.deniedText',
  late: 'outcome.waitingLong',
} as const;

/**
 * The reception takes over: a visitor on the blocklist (no word like "blocked"), one the host turned away, or one
 * kept waiting too long; each with its own words, none with a reason.
 */
export function SeeReception(props: { name: string; reason: 'blocked' | 'denied' | 'late'; onHome: () => void }) {
  const { t } = useTranslation();
  const seconds = useCountdown(20, props.onHome);
  // The heading thanks the visitor (a long name may be cut there); the instruction is never in it, so never cut.
  return (
    <Screen
      title={props.reason === 'blocked' ? t('outcome.blockedTitle') : t('outcome.thanksName', { name: props.name })}
      className="outcome outcome-story outcome-quiet"
      actions={
        <button type="button" className="btn btn-primary btn-main" onClick={props.onHome}>
          {t('common.done')}
        </button>
      }
    >
      <OutcomeMark kind="reception" />
      {props.reason !== 'blocked' && <p className="lead">{t('outcome.speakToReception')}</p>}
      <p className="outcome-next">{t(receptionText[props.reason])}</p>
      <p className="hint">{t('outcome.autoReturn', { seconds })}</p>
    </Screen>
  );
}

type PrintState = 'idle' | 'printing' | 'printed' | 'failed';

/**
 * What happens next with the host, said only as far as it is true: "we're letting them know" while the message
 * is on its way, "has been notified" once a channel confirmed it, "tell the reception" when every channel failed
 * or none is set up.
 */
function hostNext(visit: KioskVisit, t: ReturnType<typeof useTranslation>['t']): string {
  const host = visit.hostName;
  if (!host) return t('outcome.tellReception');
  const text = {
    sending: 'outcome.hostTold',
    notified: 'outcome.hostNotifiedDone',
    failed: 'outcome.hostFailed',
    none: 'outcome.tellReceptionHost',
  } as const;
  return t(text[visit.hostNotification], { host });
}

function Confirmed({ api, data, lang, visit, picture, onHome }: Props) {
  const { t } = useTranslation();
  const seconds = useCountdown(Math.max(30, data.settings.idleSeconds), onHome);
  const [print, setPrint] = useState<PrintState>('idle');
  const gateCode = useGateCode(
    api,
    data.accessEnabled ? `/v1/kiosk/visit/${visit.id}/qrcode${receiptQuery(visit.receipt)}` : undefined,
  );
  const printBadge = async () => {
    setPrint('printing');
    // In the Electron shell the badge page is printed silently on the label printer; in a browser, the dialog.
    if (window.portaria) {
      const result = await window.portaria
        .printBadge({ path: `/badge/${visit.id}${receiptQuery(visit.receipt)}` })
        .catch(() => ({ printed: false }));
      setPrint(result.printed ? 'printed' : 'failed');
    } else {
      window.print();
      setPrint('printed');
    }
  };
  const badgeText = {
    idle: t('outcome.badgeNext'),
    printing: t('outcome.badgePrinting'),
    printed: t('outcome.printed'),
    failed: t('outcome.printFailed'),
  }[print];
  return (
    <Screen
      title={t('outcome.checkedIn', { name: visit.name ?? '' })}
      className="outcome outcome-confirmed"
      actions={
        <>
          <p className="hint footer-hint">{t('outcome.autoReturn', { seconds })}</p>
          {data.settings.badgePrinting && (
            <button type="button" className="btn btn-secondary" onClick={printBadge} disabled={print === 'printing'}>
              {print === 'printing' ? t('outcome.printing') : t('outcome.print')}
            </button>
          )}
          <button type="button" className="btn btn-primary btn-main" onClick={onHome}>
            {t('common.done')}
          </button>
        </>
      }
    >
      <div className="arrival">
        <OutcomeMark kind="success" />
        <section className="arrival-next" aria-labelledby="arrival-next-title">
          <h2 id="arrival-next-title">{t('outcome.nextTitle')}</h2>
          <ol className="next-steps">
            <li className="lead">
              <span role="status">{hostNext(visit, t)}</span>
            </li>
            {data.settings.badgePrinting && (
              <li className={`next-badge next-badge-${print}`}>
                <span role="status">{badgeText}</span>
              </li>
            )}
            <GateNext data={data} visit={visit} />
          </ol>
        </section>
      </div>
      <div className="outcome-cards">
        <GateCode code={gateCode} />
        <Badge
          data={data}
          visit={visit}
          picture={picture}
          lang={lang}
          gateCode={gateCodeOnBadge(data, visit) ? gateCode : undefined}
        />
      </div>
    </Screen>
  );
}
