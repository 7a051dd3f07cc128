import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAnswered } from '../../../local-api/custom-fields/values.ts';
import { type Api, ApiProblem, listQuery, withRetries } from '../api.ts';
import { readCode } from '../codes.ts';
import { ConfirmScreen, FindScreen } from '../components/Find.tsx';
import { answerItems } from '../custom-fields.ts';
import { uuidV4 } from '../ids.ts';
import type { KioskData } from '../kiosk-data.ts';
import { todaysInvitees } from '../lists.ts';
import { problemText } from '../problems.ts';
import { matching, minSearchLength } from '../search.ts';
import { isToday, longDate, timeOfDay } from '../time.ts';
import type { Invitee, Visit } from '../types.ts';
import { CheckinSteps, type Gathered, type Requirements, requirementsOf, type Step } from './CheckinSteps.tsx';

/** What an invitation still lacks before its guest may be checked in. */
interface Completion {
  steps: Step[];
  requirements: Requirements;
}

/**
 * The steps an invited guest still has to take, by their type's rules (or the kiosk's): the required fields the
 * invitation did not answer, the questionnaire, the agreement, and the picture where it is required and the
 * invitation brought none.
 */
export function completionOf(invitee: Invitee, data: KioskData, lang: string): Completion {
  const type = data.visitorTypes.find((candidate) => candidate.id === invitee.visitorTypeId);
  const asked = requirementsOf(data, type, lang);
  const given = new Map((invitee.customFields ?? []).map((field) => [field.id, field.value ?? '']));
  const fieldDefs = asked.fieldDefs.filter(
    (def) =>
      def.required && !isAnswered({ type: def.type, options: def.options ?? [], required: true }, given.get(def.id)),
  );
  const requirements = { ...asked, fieldDefs };
  const steps = (
    [
      fieldDefs.length > 0 && 'fields',
      asked.questionDefs.length > 0 && 'questionnaire',
      asked.rules.pictureMode === 'required' && !invitee.pictureUrl && 'picture',
      asked.rules.ndaText.trim() !== '' && 'nda',
    ] as const
  ).filter((s) => s !== false);
  return { steps, requirements };
}

/**
 * An invited guest: the invitation's QR code held up to the camera, or their name or invitation code typed; then
 * "is this you?", what the company still requires of them (asked after the blocklist had its say), and the
 * check-in.
 */
export function Invited(props: {
  api: Api;
  data: KioskData;
  lang: string;
  onDone: (visit: Visit, picture: string | undefined) => void;
  onStopped: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { api, data } = props;
  const [invitees, setInvitees] = useState<Invitee[]>([]);
  const [query, setQuery] = useState('');
  const [chosen, setChosen] = useState<Invitee>();
  const [message, setMessage] = useState<string>();
  const [sending, setSending] = useState(false);
  const [completing, setCompleting] = useState<Completion>();
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

  const checkinBody = (requirements: Requirements | undefined, gathered: Partial<Gathered>) => ({
    id: visitId,
    checkinType: 'IPAD',
    ...(requirements && gathered.answers
      ? {
          customFields: answerItems(requirements.fieldDefs, gathered.answers, 'FIELD'),
          questionnaireFields: answerItems(requirements.questionDefs, gathered.answers, 'QUESTIONNAIRE'),
        }
      : {}),
    ...(gathered.picture ? { visitPicture: gathered.picture.slice(gathered.picture.indexOf(',') + 1) } : {}),
    ...(gathered.nda ? { visitNda: gathered.nda } : {}),
  });

  const submit = (invitee: Invitee, requirements: Requirements | undefined, gathered: Partial<Gathered>) =>
    withRetries(() =>
      api.send<Visit>('POST', `/v1/visit/inviteeCheckin/${invitee.id}`, checkinBody(requirements, gathered)),
    );

  /** Checks the guest in at once, or first asks the blocklist and then what the invitation lacks. */
  const confirm = async (invitee: Invitee) => {
    setSending(true);
    try {
      const completion = completionOf(invitee, data, props.lang);
      if (completion.steps.length === 0) return props.onDone(await submit(invitee, undefined, {}), undefined);
      const { stop } = await withRetries(() =>
        api.send<{ stop: boolean }>('POST', '/v1/visits/screen', { visit: { id: visitId }, inviteeId: invitee.id }),
      );
      if (stop) return props.onStopped(invitee.name ?? '');
      setSending(false);
      setCompleting(completion);
    } catch (error) {
      setSending(false);
      setMessage(problemText(error));
    }
  };

  if (chosen && completing) {
    return (
      <CheckinSteps
        steps={completing.steps}
        requirements={completing.requirements}
        data={data}
        lang={props.lang}
        signerName={chosen.name ?? ''}
        submit={(gathered) => submit(chosen, completing.requirements, gathered)}
        onDone={props.onDone}
        onStopped={props.onStopped}
        onCancel={props.onCancel}
      />
    );
  }

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
        onConfirm={() => confirm(chosen)}
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
