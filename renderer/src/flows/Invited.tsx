import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Api, ApiProblem, listQuery, withRetries } from '../api.ts';
import { readCode } from '../codes.ts';
import { ConfirmScreen, FindScreen } from '../components/Find.tsx';
import { uuidV4 } from '../ids.ts';
import type { KioskData } from '../kiosk-data.ts';
import { todaysInvitees } from '../lists.ts';
import { problemText } from '../problems.ts';
import { matching, minSearchLength } from '../search.ts';
import { isToday, longDate, timeOfDay } from '../time.ts';
import type { Invitee, Visit } from '../types.ts';

/**
 * An invited guest: the invitation's QR code held up to the camera, or their name or invitation code typed; then
 * "is this you?" and the check-in.
 */
export function Invited(props: {
  api: Api;
  data: KioskData;
  lang: string;
  onDone: (visit: Visit) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { api, data } = props;
  const [invitees, setInvitees] = useState<Invitee[]>([]);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Invitee>();
  const [message, setMessage] = useState<string>();
  const [sending, setSending] = useState(false);
  const [visitId] = useState(uuidV4);

  useEffect(() => {
    todaysInvitees(api, data.timeZone).then(setInvitees, (error) => setMessage(problemText(error)));
  }, [api, data.timeZone]);

  /** Shows the invitation for confirmation, or why it cannot be used today. */
  const offer = (invitee: Invitee | undefined) => {
    if (!invitee) return setMessage(t('invited.noMatch'));
    if (invitee.status === 'canceled') return setMessage(t('invited.canceled'));
    if (!isToday(data.timeZone, invitee.expectedAt)) {
      return setMessage(t('invited.otherDay', { date: longDate(props.lang, data.timeZone, invitee.expectedAt) }));
    }
    setMessage(undefined);
    setChosen(invitee);
  };

  const byCard = async (cardNumber: number) =>
    invitees.find((i) => i.cardNumber === cardNumber) ??
    (await api.get<{ invitees: Invitee[] }>(`/v1/invitees${listQuery('cardNumber', '==', cardNumber, 1)}`)).invitees[0];

  const scanned = async (text: string) => {
    const code = readCode(text);
    try {
      if (code.kind === 'invitee') offer(await api.get<Invitee>(`/v1/invitee/${code.id}`));
      else if (code.kind === 'card') offer(await byCard(code.cardNumber));
      else setMessage(t('invited.unknownCode'));
    } catch (error) {
      setMessage(error instanceof ApiProblem && error.status === 404 ? t('invited.noMatch') : problemText(error));
    }
  };

  const checkIn = async (invitee: Invitee) => {
    setSending(true);
    try {
      const visit = await withRetries(() =>
        api.send<Visit>('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, { id: visitId, checkinType: 'IPAD' }),
      );
      props.onDone(visit);
    } catch (error) {
      setSending(false);
      setMessage(problemText(error));
    }
  };

  if (chosen) {
    return (
      <ConfirmScreen
        title={t('invited.confirmTitle')}
        name={chosen.name}
        lines={[
          chosen.company,
          chosen.host && t('invited.visiting', { host: chosen.host.name }),
          t('invited.expectedAt', { time: timeOfDay(props.lang, data.timeZone, chosen.expectedAt) }),
        ]}
        confirmLabel={t('invited.confirm')}
        sending={sending}
        message={message}
        onConfirm={() => checkIn(chosen)}
        onBack={() => setChosen(undefined)}
        onCancel={props.onCancel}
      />
    );
  }

  const typed = query.trim();
  const isCode = /^\d{4,10}$/.test(typed);
  const searched = !isCode && typed.length >= minSearchLength;
  const confirmed = invitees.filter((i) => i.status === 'confirmed');
  const results = searched ? matching(confirmed, typed, (i) => [i.name], 5) : [];
  return (
    <FindScreen
      title={t('invited.title')}
      scanTitle={t('invited.scan')}
      searchLabel={t('invited.search')}
      searchHint={t('invited.searchHint')}
      query={query}
      onQuery={(text) => {
        setQuery(text);
        setMessage(undefined);
      }}
      submitLabel={isCode ? t('common.continue') : undefined}
      onSubmit={() => {
        if (isCode) void scanned(typed);
        else if (results.length === 1) offer(results[0]);
      }}
      results={results.map((i) => ({
        id: i.id,
        name: i.name,
        detail: [timeOfDay(props.lang, data.timeZone, i.expectedAt), i.host?.name].filter(Boolean).join(' · '),
      }))}
      noMatch={searched && results.length === 0 ? t('invited.noMatch') : undefined}
      onPick={(id) => offer(results.find((i) => i.id === id))}
      onScan={scanned}
      message={message}
      onCancel={props.onCancel}
    />
  );
}
