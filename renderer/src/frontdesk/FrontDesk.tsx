import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Api, ApiProblem, createApi } from '../api.ts';
import { Notice, Screen, Spinner } from '../components/ui.tsx';
import { problemText } from '../problems.ts';
import { setReached } from '../reach.ts';
import { useAction } from '../settings/kit.tsx';
import type { KioskSettings } from '../types.ts';
import { BlocklistPanel } from './BlocklistPanel.tsx';
import { DeskWalkIn } from './DeskWalkIn.tsx';
import './frontdesk.css';
import { VisitorTypesPanel } from '../settings/VisitorTypesPanel.tsx';
import type { Today } from './attention.ts';
import { ExpectedPanel, PendingPanel } from './lists.tsx';
import { PinPad } from './PinPad.tsx';
import type { FrontDeskProps } from './props.ts';
import { RosterPanel } from './RosterPanel.tsx';
import { SettingsPanel } from './SettingsPanel.tsx';
import { StatusPanel } from './StatusPanel.tsx';
import { TodayOverview, useToday } from './today.tsx';
import { VisitsPanel } from './VisitsPanel.tsx';

const tabs = ['inside', 'pending', 'expected', 'visits', 'walkIn', 'blocklist', 'status', 'settings', 'types'] as const;
type Tab = (typeof tabs)[number];

/** The tabs that show a count of today's overview: what they list. */
const tabCounts: Partial<Record<Tab, keyof Pick<Today, 'inside' | 'waiting' | 'expected'>>> = {
  inside: 'inside',
  pending: 'waiting',
  expected: 'expected',
};

/**
 * The front desk: staff's side of the kiosk, behind the PIN. The PIN opens a front-desk session (a short-lived
 * credential of its own, POST /v1/kiosk/frontdesk): the desk's calls carry it, not the kiosk's credential. Leaving
 * the desk ends it, and so does the kiosk's idle time-out (which returns to the welcome screen); a session the
 * service ended (its own idle limit, or revoked) sends staff back to the PIN.
 */
export function FrontDesk(props: FrontDeskProps) {
  const [session, setSession] = useState<Api>();
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    if (!session) return;
    return () => void session.send('DELETE', '/v1/kiosk/frontdesk').catch(() => undefined);
  }, [session]);
  if (!session) {
    const open = (token: string) => {
      setEnded(false);
      setSession(
        endingWhenRefused(createApi(token, setReached), () => {
          setSession(undefined);
          setEnded(true);
        }),
      );
    };
    return <PinGate api={props.api} ended={ended} onUnlocked={open} onClose={props.onClose} />;
  }
  return <Desk {...props} api={session} />;
}

/** The session's client, which calls `onEnded` when the service no longer takes the session (401). */
function endingWhenRefused(api: Api, onEnded: () => void): Api {
  const watched = <T,>(call: Promise<T>) =>
    call.catch((error: unknown) => {
      if (error instanceof ApiProblem && error.status === 401) onEnded();
      throw error;
    });
  return {
    get: (path) => watched(api.get(path)),
    optional: (path) => watched(api.optional(path)),
    send: (method, path, body) => watched(api.send(method, path, body)),
    download: (path) => watched(api.download(path)),
  };
}

function Desk(session: FrontDeskProps) {
  const { t } = useTranslation();
  const { today, api } = useToday(session.api);
  const props = { ...session, api };
  const id = useId();
  const [tab, setTab] = useState<Tab>('inside');
  // Arrow keys move between tabs, as the ARIA tabs pattern has it.
  const onKey = (e: KeyboardEvent) => {
    const step = e.key === 'ArrowRight' ? 1 : e.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    const next = tabs[(tabs.indexOf(tab) + step + tabs.length) % tabs.length] ?? 'inside';
    setTab(next);
    document.getElementById(`${id}-tab-${next}`)?.focus();
  };
  return (
    <Screen title={t('frontDesk.title')} className="front-desk" onCancel={props.onClose}>
      <TodayOverview today={today} onOpen={setTab} />
      <div className="tabs" role="tablist" aria-label={t('frontDesk.tabs')} onKeyDown={onKey}>
        {tabs.map((name) => (
          <button
            key={name}
            id={`${id}-tab-${name}`}
            type="button"
            role="tab"
            className="btn tab"
            aria-selected={tab === name}
            aria-controls={`${id}-panel`}
            tabIndex={tab === name ? 0 : -1}
            onClick={() => setTab(name)}
          >
            {t(`frontDesk.${name}`)}
            {today && tabCounts[name] && (
              <>
                {' '}
                <span className="tab-count">{today[tabCounts[name]]}</span>
              </>
            )}
          </button>
        ))}
      </div>
      <div id={`${id}-panel`} role="tabpanel" aria-labelledby={`${id}-tab-${tab}`} className="tab-panel">
        {tab === 'inside' && <RosterPanel {...props} />}
        {tab === 'pending' && <PendingPanel {...props} />}
        {tab === 'expected' && <ExpectedPanel {...props} />}
        {tab === 'visits' && <VisitsPanel {...props} />}
        {tab === 'walkIn' && <DeskWalkIn {...props} />}
        {tab === 'blocklist' && <BlocklistPanel api={props.api} />}
        {tab === 'status' && <StatusPanel api={props.api} sync={props.sync} lang={props.lang} data={props.data} />}
        {tab === 'settings' && <SettingsPanel {...props} />}
        {tab === 'types' && <VisitorTypesPanel {...props} />}
      </div>
    </Screen>
  );
}

/**
 * The PIN gate. The PIN is set when the kiosk is enrolled (printed once) or by the administrator through the API,
 * never here: a kiosk without one says so and offers nothing to type. The service checks the PIN (scrypt, constant
 * time, rate-limited) and says why it refused, in words.
 */
function PinGate(props: { api: Api; ended: boolean; onUnlocked: (token: string) => void; onClose: () => void }) {
  const { api, onUnlocked, onClose } = props;
  const { t } = useTranslation();
  const [pinSet, setPinSet] = useState<boolean>();
  const [loadProblem, setLoadProblem] = useState<string>();
  const [pin, setPin] = useState('');
  const { busy, notice, run } = useAction();

  useEffect(() => {
    api.get<KioskSettings>('/v1/kiosk/settings').then(
      (settings) => setPinSet(settings.pinSet),
      (error) => setLoadProblem(problemText(error)),
    );
  }, [api]);

  const verify = () =>
    run(async () => {
      const { token } = await api.send<{ token: string }>('POST', '/v1/kiosk/frontdesk', { pin });
      onUnlocked(token);
      return undefined;
    }).finally(() => setPin(''));

  return (
    <Screen title={t('frontDesk.pinTitle')} className="pin-gate" onBack={onClose} onCancel={onClose}>
      {loadProblem && <Notice kind="error">{loadProblem}</Notice>}
      {pinSet === undefined && !loadProblem && <Spinner label={t('common.loading')} />}
      {pinSet === false && <p className="lead">{t('frontDesk.noPin')}</p>}
      {props.ended && <Notice kind="info">{t('frontDesk.sessionEnded')}</Notice>}
      {pinSet && (
        <PinPad
          label={t('frontDesk.pin')}
          value={pin}
          onChange={setPin}
          submitLabel={t('frontDesk.unlock')}
          onSubmit={verify}
          busy={busy}
        />
      )}
      {notice}
    </Screen>
  );
}
