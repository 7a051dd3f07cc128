import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Api, ApiProblem } from '../api.ts';
import { readCode, visitCode } from '../codes.ts';
import { ConfirmScreen, FindScreen } from '../components/Find.tsx';
import { OutcomeMark } from '../components/OutcomeMark.tsx';
import { Screen } from '../components/ui.tsx';
import { useCountdown } from '../hooks.ts';
import type { KioskData } from '../kiosk-data.ts';
import { problemText } from '../problems.ts';
import type { FoundPerson } from '../types.ts';

const shownName = (person: { firstName: string; initial: string }) =>
  [person.firstName, person.initial].filter(Boolean).join(' ');

/**
 * Check-out: the badge's QR code held up to the camera, or one's whole name typed. The service answers the badge's
 * visit, or a name's close matches inside now, as a first name and an initial with a ticket: nobody else is revealed.
 */
export function Checkout(props: { api: Api; data: KioskData; lang: string; onCancel: () => void }) {
  const { t } = useTranslation();
  const { api } = props;
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<FoundPerson[]>([]);
  const [chosen, setChosen] = useState<FoundPerson>();
  const [message, setMessage] = useState<string>();
  const [sending, setSending] = useState(false);
  const [goodbye, setGoodbye] = useState<string>();

  const scanned = async (text: string) => {
    const code = readCode(text);
    if (code.kind !== 'visit') return setMessage(t('checkout.scanBadge'));
    try {
      const { visits } = await api.send<{ visits: FoundPerson[] }>('POST', '/v1/kiosk/checkout/find', {
        code: visitCode(code.id),
      });
      setMessage(visits[0] ? undefined : t('checkout.noMatch'));
      setChosen(visits[0]);
    } catch (error) {
      setMessage(
        error instanceof ApiProblem && error.type === 'ALREADY_CHECKOUT'
          ? t('checkout.alreadyOut')
          : problemText(error),
      );
    }
  };

  const find = async (name: string) => {
    setMessage(undefined);
    try {
      const { visits } = await api.send<{ visits: FoundPerson[] }>('POST', '/v1/kiosk/checkout/find', { name });
      setFound(visits);
      if (visits.length === 0) setMessage(t('checkout.noMatch'));
      else if (visits.length === 1) setChosen(visits[0]);
    } catch (error) {
      setMessage(problemText(error));
    }
  };

  const checkOut = async (leaving: FoundPerson) => {
    setSending(true);
    try {
      const done = await api.send<{ firstName: string }>('POST', '/v1/kiosk/checkout', { ticket: leaving.ticket });
      setGoodbye(done.firstName);
    } catch (error) {
      setSending(false);
      // Checked out already (elsewhere, or a lost answer retried): the visitor's goal is reached all the same.
      if (error instanceof ApiProblem && error.type === 'ALREADY_CHECKOUT') {
        setGoodbye(leaving.firstName);
      } else setMessage(problemText(error));
    }
  };

  if (goodbye !== undefined) return <Goodbye name={goodbye} onHome={props.onCancel} />;

  if (chosen) {
    const name = shownName(chosen);
    return (
      <ConfirmScreen
        title={t('checkout.confirmTitle', { name })}
        name={name}
        lines={[]}
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
  return (
    <FindScreen
      title={t('checkout.title')}
      scanTitle={t('checkout.scan')}
      searchLabel={t('checkout.search')}
      searchHint={t('checkout.searchHint')}
      query={query}
      onQuery={(text) => {
        setQuery(text);
        setFound([]);
        setMessage(undefined);
      }}
      submitLabel={t('common.continue')}
      onSubmit={() => {
        if (typed !== '') void find(typed);
      }}
      results={
        found.length > 1 ? found.map((person) => ({ id: person.ticket, name: shownName(person), detail: '' })) : []
      }
      onPick={(ticket) => {
        const person = found.find((candidate) => candidate.ticket === ticket);
        if (person) setChosen(person);
      }}
      onScan={scanned}
      message={message}
      onCancel={props.onCancel}
    />
  );
}

function Goodbye({ name, onHome }: { name: string; onHome: () => void }) {
  const { t } = useTranslation();
  const seconds = useCountdown(10, onHome);
  return (
    <Screen
      title={t('checkout.goodbye', { name })}
      className="outcome outcome-story"
      actions={
        <button type="button" className="btn btn-primary btn-main" onClick={onHome}>
          {t('common.done')}
        </button>
      }
    >
      <OutcomeMark kind="goodbye" />
      <p className="lead">{t('checkout.thanks')}</p>
      <p className="hint">{t('outcome.autoReturn', { seconds })}</p>
    </Screen>
  );
}
