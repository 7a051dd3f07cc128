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

/** How far apart two clocks are, in the largest whole unit that fits: "3 hr", "12 min", "45 sec" (localized). */
function clockDistance(lang: string, ms: number): string {
  const seconds = Math.round(Math.abs(ms) / 1000);
  const [value, unit]: [number, string] =
    seconds >= 3600 ? [seconds / 3600, 'hour'] : seconds >= 60 ? [seconds / 60, 'minute'] : [seconds, 'second'];
  return new Intl.NumberFormat(lang, { style: 'unit', unit, unitDisplay: 'short', maximumFractionDigits: 1 }).format(
    value,
  );
}

/** The kiosk's service, its sync with the hub and its gate callbacks; those the service lacks say so. */
export function StatusPanel(props: { api: Api; sync: SyncStatus | undefined; lang: string; data: KioskData }) {
  const { t } = useTranslation();
  const reached = useReached();
  const [sync, setSync] = useState<SyncStatus | null | undefined>(props.sync);
  const [gate, setGate] = useState<GateStatus | null>();
  const refresh = useCallback(() => {
    props.api.optional<SyncStatus>('/v1/sync/status').then(
      (s) => setSync(s ?? null),
      () => undefined,
    );
    props.api.optional<GateStatus>('/v1/integration/access/status').then(
      (g) => setGate(g ?? null),
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
