import { type KeyboardEvent, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Api, createApi } from '../api.ts';
import { Notice, Screen, Spinner } from '../components/ui.tsx';
import { problemText } from '../problems.ts';
import { setReached } from '../reach.ts';
import type { KioskSettings } from '../types.ts';
import { BlocklistPanel } from './BlocklistPanel.tsx';
import { DeskWalkIn } from './DeskWalkIn.tsx';
import { useAction } from './kit.tsx';
import './frontdesk.css';
import { ExpectedPanel, PendingPanel } from './lists.tsx';
import { PinPad } from './PinPad.tsx';
import type { FrontDeskProps } from './props.ts';
import { RosterPanel } from './RosterPanel.tsx';
import { SettingsPanel } from './SettingsPanel.tsx';
import { StatusPanel } from './StatusPanel.tsx';
import { VisitorTypesPanel } from './VisitorTypesPanel.tsx';
import { VisitsPanel } from './VisitsPanel.tsx';

const tabs = ['inside', 'pending', 'expected', 'visits', 'walkIn', 'blocklist', 'status', 'settings', 'types'] as const;
type Tab = (typeof tabs)[number];

/**
 * The front desk: staff's side of the kiosk, behind the PIN. The PIN opens a front-desk session (a short-lived
 * credential of its own, POST /v1/kiosk/frontdesk): the desk's calls carry it, not the kiosk's credential, and
 * leaving the desk ends it.
 */
export function FrontDesk(props: FrontDeskProps) {
  const [session, setSession] = useState<Api>();
  useEffect(() => {
    if (!session) return;
    return () => void session.send('DELETE', '/v1/kiosk/frontdesk').catch(() => undefined);
  }, [session]);
  if (!session) {
    return (
      <PinGate
        api={props.api}
        onUnlocked={(token) => setSession(createApi(token, setReached))}
        onClose={props.onClose}
      />
    );
  }
  return <Desk {...props} api={session} />;
}

function Desk(props: FrontDeskProps) {
  const { t } = useTranslation();
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
 * The PIN gate. A kiosk without a PIN asks for one first (twice, to catch a slip); after that the PIN opens the
 * desk. The service checks it (scrypt, constant time, rate-limited) and says why it refused, in words.
 */
function PinGate({ api, onUnlocked, onClose }: { api: Api; onUnlocked: (token: string) => void; onClose: () => void }) {
  const { t } = useTranslation();
  const [pinSet, setPinSet] = useState<boolean>();
  const [loadProblem, setLoadProblem] = useState<string>();
  const [pin, setPin] = useState('');
  const [first, setFirst] = useState<string>();
  const [mismatch, setMismatch] = useState(false);
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

  const choose = () => {
    if (first === undefined) {
      setFirst(pin);
      setPin('');
      setMismatch(false);
      return;
    }
    if (first !== pin) {
      setFirst(undefined);
      setPin('');
      setMismatch(true);
      return;
    }
    void run(async () => {
      await api.send('POST', '/v1/kiosk/pin', { pin });
      const { token } = await api.send<{ token: string }>('POST', '/v1/kiosk/frontdesk', { pin });
      onUnlocked(token);
      return undefined;
    }).finally(() => {
      setFirst(undefined);
      setPin('');
    });
  };

  const title = pinSet === false ? t('frontDesk.setPinTitle') : t('frontDesk.pinTitle');
  return (
    <Screen title={title} className="pin-gate" onBack={onClose} onCancel={onClose}>
      {loadProblem && <Notice kind="error">{loadProblem}</Notice>}
      {pinSet === undefined && !loadProblem && <Spinner label={t('common.loading')} />}
      {pinSet === false && <p className="lead">{t('frontDesk.setPinText')}</p>}
      {pinSet !== undefined && (
        <PinPad
          label={pinSet ? t('frontDesk.pin') : first === undefined ? t('frontDesk.newPin') : t('frontDesk.repeatPin')}
          value={pin}
          onChange={setPin}
          submitLabel={pinSet ? t('frontDesk.unlock') : first === undefined ? t('common.next') : t('frontDesk.setPin')}
          onSubmit={pinSet ? verify : choose}
          busy={busy}
        />
      )}
      {mismatch && <Notice kind="error">{t('frontDesk.pinMismatch')}</Notice>}
      {notice}
    </Screen>
  );
}
