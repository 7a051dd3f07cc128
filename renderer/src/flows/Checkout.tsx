import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Api, ApiProblem } from '../api.ts';
import { readCode } from '../codes.ts';
import { ConfirmScreen, FindScreen } from '../components/Find.tsx';
import { Screen } from '../components/ui.tsx';
import { useCountdown } from '../hooks.ts';
import type { KioskData } from '../kiosk-data.ts';
import { type InsideVisit, insideVisits } from '../lists.ts';
import { problemText } from '../problems.ts';
import { matching, minSearchLength } from '../search.ts';
import { timeOfDay } from '../time.ts';
import type { Visit } from '../types.ts';

/** Check-out: the badge's QR code (or the invitation's) held up to the camera, or one's name typed. */
export function Checkout(props: { api: Api; data: KioskData; lang: string; onCancel: () => void }) {
  const { t } = useTranslation();
  const { api, data } = props;
  const [inside, setInside] = useState<InsideVisit[]>([]);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<InsideVisit>();
  const [message, setMessage] = useState<string>();
  const [sending, setSending] = useState(false);
  const [done, setDone] = useState<Visit>();

  useEffect(() => {
    insideVisits(api).then(setInside, (error) => setMessage(problemText(error)));
  }, [api]);

  const offer = (visit: InsideVisit | undefined) => {
    if (!visit) return setMessage(t('checkout.noMatch'));
    if (!visit.isInsideCompany) return setMessage(t('checkout.alreadyOut'));
    setMessage(undefined);
    setChosen(visit);
  };

  const scanned = async (text: string) => {
    const code = readCode(text);
    try {
      if (code.kind === 'visit')
        offer(inside.find((v) => v.id === code.id) ?? (await api.get<Visit>(`/v1/visit/${code.id}`)));
      else if (code.kind === 'invitee') offer(inside.find((v) => v.inviteeId === code.id));
      else if (code.kind === 'card') offer(inside.find((v) => v.cardNumber === String(code.cardNumber)));
      else setMessage(t('invited.unknownCode'));
    } catch (error) {
      setMessage(error instanceof ApiProblem && error.status === 404 ? t('checkout.noMatch') : problemText(error));
    }
  };

  const checkOut = async (visit: Visit) => {
    setSending(true);
    try {
      setDone(await api.send<Visit>('PATCH', `/v1/visit/checkout/${visit.id}`, { checkoutType: 'IPAD' }));
    } catch (error) {
      setSending(false);
      // Checked out already (elsewhere, or a lost answer retried): the visitor's goal is reached all the same.
      if (error instanceof ApiProblem && error.type === 'ALREADY_CHECKOUT') setDone(visit);
      else setMessage(problemText(error));
    }
  };

  if (done) return <Goodbye visit={done} onHome={props.onCancel} />;

  if (chosen) {
    return (
      <ConfirmScreen
        title={t('checkout.confirmTitle', { name: chosen.name ?? '' })}
        name={chosen.name}
        lines={[chosen.company, t('checkout.since', { time: timeOfDay(props.lang, data.timeZone, chosen.checkinAt) })]}
        confirmLabel={t('checkout.confirm')}
        sending={sending}
        message={message}
        onConfirm={() => checkOut(chosen)}
        onBack={() => setChosen(undefined)}
        onCancel={props.onCancel}
      />
    );
  }

  const typed = query.trim();
  const searched = typed.length >= minSearchLength;
  const results = searched ? matching(inside, typed, (v) => [v.name], 5) : [];
  return (
    <FindScreen
      title={t('checkout.title')}
      scanTitle={t('checkout.scan')}
      searchLabel={t('checkout.search')}
      searchHint={t('checkout.searchHint')}
      query={query}
      onQuery={(text) => {
        setQuery(text);
        setMessage(undefined);
      }}
      onSubmit={() => {
        if (results.length === 1) offer(results[0]);
      }}
      results={results.map((v) => ({
        id: v.id,
        name: v.name,
        detail: [timeOfDay(props.lang, data.timeZone, v.checkinAt), v.company].filter(Boolean).join(' · '),
      }))}
      noMatch={searched && results.length === 0 ? t('checkout.noMatch') : undefined}
      onPick={(id) => offer(results.find((v) => v.id === id))}
      onScan={scanned}
      message={message}
      onCancel={props.onCancel}
    />
  );
}

function Goodbye({ visit, onHome }: { visit: Visit; onHome: () => void }) {
  const { t } = useTranslation();
  const seconds = useCountdown(10, onHome);
  return (
    <Screen
      title={t('checkout.goodbye', { name: visit.name ?? '' })}
      className="outcome"
      actions={
        <button type="button" className="btn btn-primary btn-main" onClick={onHome}>
          {t('common.done')}
        </button>
      }
    >
      <p className="lead">{t('checkout.thanks')}</p>
      <p className="hint">{t('outcome.autoReturn', { seconds })}</p>
    </Screen>
  );
}
