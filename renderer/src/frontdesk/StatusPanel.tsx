import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Api } from '../api.ts';
import type { SyncStatus } from '../hub.ts';
import type { KioskData } from '../kiosk-data.ts';
import { useReached } from '../reach.ts';
import { dateAndTime } from '../time.ts';

/** GET /v1/integration/access/status: the gate callbacks' delivery queue. */
interface GateStatus {
  pending: number;
  failed: number;
  done: number;
  lastError: string | null;
}

/** GET /v1/integration/notifications/deliveries, as far as the status shows a delivery. */
interface HostDelivery {
  id: string;
  updatedAt: string;
  channel: string;
  hostName: string | null;
  status: 'pending' | 'done' | 'failed';
  lastError: string | null;
}

/** Given up, or still retried after a failed attempt (as the day's "messages failing" count them). */
const failing = (delivery: HostDelivery) =>
  delivery.status === 'failed' || (delivery.status === 'pending' && delivery.lastError !== null);

/** How far apart two clocks are, in the largest whole unit that fits: "3 hr", "12 min", "45 sec" (localized). */
function clockDistance(lang: string, ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  const [value, unit]: [number, string] =
    seconds >= 3600 ? [seconds / 3600, 'hour'] : seconds >= 60 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(
    value,
  );
}

/**
 * The kiosk's service, its sync with the hub, its messages to hosts (the queue, and each failing delivery: who,
 * which channel, the error) and its gate callbacks; those the service lacks say so.
 */
export function StatusPanel(props: { api: Api; sync: SyncStatus | undefined; lang: string; data: KioskData }) {
  const { t } = useTranslation();
  const reached = useReached();
  const [sync, setSync] = useState<SyncStatus | null | undefined>(props.sync);
  const [gate, setGate] = useState<GateStatus | null>();
  const [messages, setMessages] = useState<GateStatus | null>();
  const [deliveries, setDeliveries] = useState<HostDelivery[]>([]);
  const refresh = useCallback(() => {
    props.api.optional<SyncStatus>('/v1/sync/status').then(
      (s) => setSync(s ?? null),
      () => undefined,
    );
    props.api.optional<GateStatus>('/v1/integration/access/status').then(
      (g) => setGate(g ?? null),
      () => undefined,
    );
    // The messages to hosts: the queue's counts (none when no channel was ever set up) and who is failing now.
    props.api.optional<{ queue: GateStatus }>('/v1/integration/notifications').then(
      (settings) => setMessages(settings?.queue ?? null),
      () => undefined,
    );
    props.api.get<{ deliveries: HostDelivery[] }>('/v1/integration/notifications/deliveries?limit=50').then(
      (answer) => setDeliveries(answer.deliveries.filter(failing)),
      () => undefined,
    );
  }, [props.api]);
  useEffect(refresh, [refresh]);
  const when = (at: string | null) => (at ? dateAndTime(props.lang, props.data.timeZone, at) : '—');
  return (
    <div className="status-panel">
      <button type="button" className="btn btn-secondary" onClick={refresh}>
        {t('statusTab.refresh')}
      </button>
      <section className="fd-section">
        <h2>{t('statusTab.service')}</h2>
        <p>{reached ? t('statusTab.serviceOk') : t('errors.SERVICE_UNREACHABLE')}</p>
      </section>
      <section className="fd-section">
        <h2>{t('statusTab.sync')}</h2>
        {sync === null && <p>{t('statusTab.unavailable')}</p>}
        {sync?.clockWarning && typeof sync.clockSkewMs === 'number' && (
          <p className="notice notice-error" role="alert">
            {t(sync.clockSkewMs < 0 ? 'statusTab.clockAhead' : 'statusTab.clockBehind', {
              amount: clockDistance(props.lang, sync.clockSkewMs),
            })}
          </p>
        )}
        {sync && (
          <dl className="facts">
            <dt>{t('statusTab.state')}</dt>
            <dd>{t(`statusTab.${sync.state}`)}</dd>
            <dt>{t('settings.hubUrl')}</dt>
            <dd>{sync.upstream ?? t('statusTab.notConfigured')}</dd>
            <dt>{t('statusTab.pending')}</dt>
            <dd>{sync.pending}</dd>
            <dt>{t('statusTab.lastSuccess')}</dt>
            <dd>{when(sync.lastSuccessAt)}</dd>
            {sync.lastError && (
              <>
                <dt>{t('statusTab.lastError')}</dt>
                <dd>{sync.lastError}</dd>
              </>
            )}
          </dl>
        )}
      </section>
      <section className="fd-section status-messages">
        <h2>{t('statusTab.messages')}</h2>
        {messages === null && <p>{t('statusTab.notConfigured')}</p>}
        {messages && (
          <dl className="facts">
            <dt>{t('statusTab.pending')}</dt>
            <dd>{messages.pending}</dd>
            <dt>{t('statusTab.failed')}</dt>
            <dd>{messages.failed}</dd>
            <dt>{t('statusTab.done')}</dt>
            <dd>{messages.done}</dd>
          </dl>
        )}
        <h3>{t('statusTab.messagesFailing')}</h3>
        {deliveries.length === 0 ? (
          <p>{t('statusTab.messagesNoneFailing')}</p>
        ) : (
          <table className="table message-failures">
            <thead>
              <tr>
                <th scope="col">{t('statusTab.messageHost')}</th>
                <th scope="col">{t('statusTab.messageChannel')}</th>
                <th scope="col">{t('statusTab.messageError')}</th>
                <th scope="col">{t('statusTab.state')}</th>
              </tr>
            </thead>
            <tbody>
              {deliveries.map((delivery) => (
                <tr key={delivery.id}>
                  <td>
                    <span className="wrap">{delivery.hostName ?? '—'}</span>
                  </td>
                  <td>{delivery.channel}</td>
                  <td>
                    <span className="wrap">{delivery.lastError}</span>
                  </td>
                  <td>
                    {delivery.status === 'failed' ? t('statusTab.failed') : t('statusTab.pending')} ·{' '}
                    {when(delivery.updatedAt)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </section>
      <section className="fd-section">
        <h2>{t('statusTab.gate')}</h2>
        {gate === null && <p>{t('statusTab.unavailable')}</p>}
        {gate && (
          <dl className="facts">
            <dt>{t('statusTab.pending')}</dt>
            <dd>{gate.pending}</dd>
            <dt>{t('statusTab.failed')}</dt>
            <dd>{gate.failed}</dd>
            <dt>{t('statusTab.done')}</dt>
            <dd>{gate.done}</dd>
            {gate.lastError && (
              <>
                <dt>{t('statusTab.lastError')}</dt>
                <dd>{gate.lastError}</dd>
              </>
            )}
          </dl>
        )}
      </section>
    </div>
  );
}
