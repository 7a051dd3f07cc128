import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Api } from './api.ts';
import { applyBrand } from './brand.ts';
import { Announcer, Spinner } from './components/ui.tsx';
import { Checkout } from './flows/Checkout.tsx';
import { Invited } from './flows/Invited.tsx';
import { WalkIn } from './flows/WalkIn.tsx';
import { useIdle } from './hooks.ts';
import { hubOffline, useSyncStatus } from './hub.ts';
import { kioskLanguage, type Lang } from './i18n/index.ts';
import { type KioskData, loadKioskData } from './kiosk-data.ts';
import { useReached } from './reach.ts';
import { Outcome, SeeReception } from './screens/Outcome.tsx';
import { ScreenFailure } from './screens/ScreenFailure.tsx';
import { Welcome } from './screens/Welcome.tsx';
import type { KioskVisit, VisitorType } from './types.ts';

// The visitors' flows are in the first chunk: a tap must never wait for (or fail on) a download. What they load
// later (camera decoding, signature pad, PDF maker, QR drawing) is fetched in the background once the kiosk is up;
// the front desk, for staff only, comes in its own chunk.
const FrontDesk = lazy(() => import('./frontdesk/FrontDesk.tsx').then((m) => ({ default: m.FrontDesk })));

type Screen =
  | { name: 'welcome' }
  | { name: 'walkIn'; visitorType: VisitorType | undefined }
  | { name: 'invited' }
  | { name: 'checkout' }
  | { name: 'outcome'; visit: KioskVisit; picture: string | undefined }
  | { name: 'stopped'; visitorName: string }
  | { name: 'frontDesk' };

/** Seconds of the "are you still there?" warning before an idle kiosk returns to its welcome screen. */
const warnSeconds = 10;
/** Staff at the front desk read lists and type: they get at least three minutes. */
const frontDeskIdleSeconds = 180;

export function App({ api, initial }: { api: Api; initial: KioskData }) {
  const { t, i18n } = useTranslation();
  const [data, setData] = useState(initial);
  const [screen, setScreen] = useState<Screen>({ name: 'welcome' });
  // A new session for every visitor: flows are mounted afresh, so nothing typed survives the return to start.
  const [session, setSession] = useState(0);
  const companyLang = kioskLanguage(data.company?.lang);
  const [lang, setLang] = useState<Lang>(companyLang);
  const reached = useReached();
  const sync = useSyncStatus(api);

  useEffect(() => {
    void i18n.changeLanguage(lang);
    document.documentElement.lang = lang;
  }, [lang, i18n]);

  useEffect(() => applyBrand(data.company?.brandColor), [data.company?.brandColor]);

  const refresh = useCallback(() => {
    loadKioskData(api).then(setData, () => undefined);
  }, [api]);

  const home = useCallback(() => {
    setScreen({ name: 'welcome' });
    setSession((s) => s + 1);
    setLang(kioskLanguage(data.company?.lang));
    refresh();
  }, [data.company?.lang, refresh]);

  const idleSeconds =
    screen.name === 'frontDesk' ? Math.max(frontDeskIdleSeconds, data.settings.idleSeconds) : data.settings.idleSeconds;
  const watched = screen.name !== 'welcome' && screen.name !== 'outcome' && screen.name !== 'stopped';
  const { remaining, stay } = useIdle(watched, idleSeconds * 1000, warnSeconds * 1000, home);

  useEffect(() => {
    const timer = setTimeout(() => {
      void import('jsqr');
      void import('qrcode');
      void import('signature_pad');
      void import('./nda-pdf.ts');
      void import('./frontdesk/FrontDesk.tsx');
    }, 1500);
    return () => clearTimeout(timer);
  }, []);

  const done = (visit: KioskVisit, picture?: string) => setScreen({ name: 'outcome', visit, picture });
  const stopped = (visitorName: string) => setScreen({ name: 'stopped', visitorName });
  const flowProps = { api, data, lang, onCancel: home };
  const offeredTypes = data.visitorTypes.filter((type) => type.isActive);
  return (
    <div className="kiosk" data-screen={screen.name}>
      {!reached && (
        <div className="banner banner-error" role="alert">
          {t('status.serviceDown')}
        </div>
      )}
      {reached && hubOffline(sync) && (
        <div className="banner banner-offline" role="status">
          {t('status.hubOffline')} {sync && sync.pending > 0 && t('status.hubPending', { count: sync.pending })}
        </div>
      )}
      <Announcer>
        <ScreenFailure key={session} onHome={home}>
          <Suspense fallback={<Spinner label={t('common.loading')} />}>
            {screen.name === 'welcome' && (
              <Welcome
                company={data.company}
                lang={lang}
                visitorTypes={offeredTypes}
                onLang={setLang}
                onWalkIn={(visitorType) => setScreen({ name: 'walkIn', visitorType })}
                onInvited={() => setScreen({ name: 'invited' })}
                onCheckout={() => setScreen({ name: 'checkout' })}
                onFrontDesk={() => setScreen({ name: 'frontDesk' })}
              />
            )}
            {screen.name === 'walkIn' && (
              <WalkIn key={session} {...flowProps} visitorType={screen.visitorType} onDone={done} onStopped={stopped} />
            )}
            {screen.name === 'invited' && <Invited key={session} {...flowProps} onDone={done} onStopped={stopped} />}
            {screen.name === 'stopped' && (
              <SeeReception key={session} name={screen.visitorName} reason="blocked" onHome={home} />
            )}
            {screen.name === 'checkout' && <Checkout key={session} {...flowProps} />}
            {screen.name === 'outcome' && (
              <Outcome
                key={session}
                api={api}
                data={data}
                lang={lang}
                visit={screen.visit}
                picture={screen.picture}
                onHome={home}
              />
            )}
            {screen.name === 'frontDesk' && (
              <FrontDesk
                key={session}
                api={api}
                data={data}
                lang={lang}
                sync={sync}
                onSettings={refresh}
                onClose={home}
              />
            )}
          </Suspense>
        </ScreenFailure>
      </Announcer>
      {remaining !== null && (
        <div className="overlay">
          <div
            className="dialog"
            role="alertdialog"
            aria-modal="true"
            aria-labelledby="idle-title"
            aria-describedby="idle-text"
          >
            <h2 id="idle-title">{t('idle.title')}</h2>
            <p id="idle-text">{t('idle.text', { seconds: remaining })}</p>
            {/* biome-ignore lint/a11y/noAutofocus: the dialog's one action, for keyboard users too */}
            <button type="button" className="btn btn-primary" onClick={stay} autoFocus>
              {t('idle.stay')}
            </button>
          </div>
        </div>
      )}
    </div>
  );
}
