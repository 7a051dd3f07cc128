import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice } from '../components/ui.tsx';
import { problemText } from '../problems.ts';
import { dateAndTime } from '../time.ts';
import { Check, Section, TextInput, useAction } from './kit.tsx';
import type { SettingsProps } from './props.ts';

/** GET /v1/privacy/retention (docs/reliability.md, "Retention"). */
interface Retention {
  retentionDays: number | null;
  lastSweepAt: string | null;
}

/**
 * How long visitors' data is kept: a number of days after a visit, or until someone erases it (the default). The
 * service applies a new value at once and every day after; the last sweep is shown so an admin sees it ran.
 */
export function RetentionSection({ api, data, lang }: SettingsProps) {
  const { t } = useTranslation(['admin', 'translation']);
  const [retention, setRetention] = useState<Retention>();
  const [loadProblem, setLoadProblem] = useState<string>();
  const [forever, setForever] = useState(true);
  const [days, setDays] = useState('365');
  const { busy, notice, run } = useAction();
  const take = useCallback((loaded: Retention) => {
    setRetention(loaded);
    setForever(loaded.retentionDays === null);
    if (loaded.retentionDays !== null) setDays(String(loaded.retentionDays));
  }, []);
  useEffect(() => {
    api.get<Retention>('/v1/privacy/retention').then(take, (error) => setLoadProblem(problemText(error)));
  }, [api, take]);
  const save = () =>
    run(async () => {
      take(
        await api.send<Retention>('PUT', '/v1/privacy/retention', {
          retentionDays: forever ? null : Number(days),
        }),
      );
      return t('translation:common.saved');
    });
  return (
    <Section
      title={t('retention.title')}
      onSave={save}
      saveLabel={t('translation:common.save')}
      busy={busy}
      notice={notice}
    >
      <p className="hint">{t('retention.intro')}</p>
      {loadProblem && <Notice kind="error">{loadProblem}</Notice>}
      <Check label={t('retention.forever')} checked={forever} onChange={setForever} />
      {!forever && <TextInput label={t('retention.days')} type="number" value={days} onChange={setDays} />}
      {retention && (
        <p>
          {retention.lastSweepAt
            ? t('retention.lastSweep', { at: dateAndTime(lang, data.timeZone, retention.lastSweepAt) })
            : t('retention.neverSwept')}
        </p>
      )}
    </Section>
  );
}
