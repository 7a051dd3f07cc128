import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isAnswered } from '../../../local-api/custom-fields/values.ts';
import { type Api, withRetries } from '../api.ts';
import { ConfirmScreen, FindScreen } from '../components/Find.tsx';
import { answerItems } from '../custom-fields.ts';
import { uuidV4 } from '../ids.ts';
import type { KioskData } from '../kiosk-data.ts';
import { problemText } from '../problems.ts';
import { longDate, timeOfDay } from '../time.ts';
import type { FoundInvitee, Invitee, KioskVisit } from '../types.ts';
import { CheckinSteps, type Gathered, type Requirements, requirementsOf, type Step } from './CheckinSteps.tsx';

/** What an invitation still lacks before its guest may be checked in. */
interface Completion {
  steps: Step[];
  requirements: Requirements;
}

/** What an invitation holds already, and what its guest pre-registered (the register page, docs/kiosk.md). */
interface InvitationState {
  answered: Set<string>;
  hasPicture: boolean;
  preRegistered: boolean;
  hasAgreement: boolean;
}

/**
 * What an invitation holds already: the kiosk's lookup says it (the ids of the fields and questions answered,
 * whether it brought a picture, what was pre-registered); the front desk, which reads the whole invitee, works it
 * out from the answers themselves and asks a pre-registered guest nothing the invitee object does not show.
 */
function invitationState(invitee: Invitee | FoundInvitee): InvitationState {
  if ('answeredFieldIds' in invitee) return { ...invitee, answered: new Set(invitee.answeredFieldIds) };
  const answered = (invitee.customFields ?? []).filter((field) =>
    isAnswered({ type: field.type ?? 'Text', options: [], required: true }, field.value ?? undefined),
  );
  return {
    answered: new Set(answered.map((field) => field.id)),
    hasPicture: Boolean(invitee.pictureUrl),
    preRegistered: false,
    hasAgreement: false,
  };
}

/**
 * The steps an invited guest still has to take, by their type's rules (or the kiosk's): the required fields the
 * invitation did not answer, the questionnaire (of a pre-registered guest, only the required questions left
 * unanswered), the agreement unless it was signed when pre-registering, and the picture where it is required and
 * the invitation brought none. A guest who pre-registered everything has none left: one scan checks them in.
 */
export function completionOf(invitee: Invitee | FoundInvitee, data: KioskData, lang: string): Completion {
  const type = data.visitorTypes.find((candidate) => candidate.id === invitee.visitorTypeId);
  const asked = requirementsOf(data, type, lang);
  const { answered, hasPicture, preRegistered, hasAgreement } = invitationState(invitee);
  const unanswered = (def: { id: string; required?: boolean }) => def.required && !answered.has(def.id);
  const fieldDefs = asked.fieldDefs.filter(unanswered);
  const questionDefs = preRegistered ? asked.questionDefs.filter(unanswered) : asked.questionDefs;
  const requirements = { ...asked, fieldDefs, questionDefs };
  const steps = (
    [
      fieldDefs.length > 0 && 'fields',
      questionDefs.length > 0 && 'questionnaire',
      asked.rules.pictureMode === 'required' && !hasPicture && 'picture',
      asked.rules.ndaText.trim() !== '' && !hasAgreement && 'nda',
    ] as const
  ).filter((s) => s !== false);
  return { steps, requirements };
}

const shownName = (person: { firstName: string; initial: string }) =>
  [person.firstName, person.initial].filter(Boolean).join(' ');

/**
 * An invited guest: the invitation's QR code held up to the camera, its code typed, or the guest's whole name
 * typed (the service answers only close matches expected today, as a first name and an initial); then "is this
 * you?", what the company still requires of them (asked after the blocklist had its say), and the check-in.
 */
export function Invited(props: {
  api: Api;
  data: KioskData;
  lang: string;
  onDone: (visit: KioskVisit, picture: string | undefined) => void;
  onStopped: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { api, data } = props;
  const [query, setQuery] = useState('');
  const [found, setFound] = useState<FoundInvitee[]>([]);
  const [chosen, setChosen] = useState<FoundInvitee>();
  const [message, setMessage] = useState<string>();
  const [sending, setSending] = useState(false);
  const [completing, setCompleting] = useState<Completion>();
  const [visitId] = useState(uuidV4);

  /** Shows the invitation for confirmation, or why it cannot be used today. */
  const offer = (invitee: FoundInvitee) => {
    if (!invitee.expectedToday) {
      return setMessage(t('invited.otherDay', { date: longDate(props.lang, data.timeZone, invitee.expectedAt) }));
    }
    setMessage(undefined);
    setChosen(invitee);
  };

  const find = async (lookup: { code: string } | { name: string }) => {
    setMessage(undefined);
    try {
      const { invitees } = await api.send<{ invitees: FoundInvitee[] }>('POST', '/v1/kiosk/invitees/find', lookup);
      setFound(invitees);
      if (invitees.length === 0) setMessage(t('invited.noMatch'));
      else if (invitees.length === 1 && invitees[0]) offer(invitees[0]);
    } catch (error) {
      setMessage(problemText(error));
    }
  };

  const checkinBody = (invitee: FoundInvitee, requirements: Requirements | undefined, gathered: Partial<Gathered>) => ({
    ticket: invitee.ticket,
    visitId,
    ...(requirements && gathered.answers
      ? {
          customFields: answerItems(requirements.fieldDefs, gathered.answers, 'FIELD'),
          questionnaireFields: answerItems(requirements.questionDefs, gathered.answers, 'QUESTIONNAIRE'),
        }
      : {}),
    ...(gathered.picture ? { visitPicture: gathered.picture.slice(gathered.picture.indexOf(',') + 1) } : {}),
    ...(gathered.nda ? { visitNda: gathered.nda.pdf, ndaSignature: gathered.nda.signature } : {}),
  });

  const submit = (invitee: FoundInvitee, requirements: Requirements | undefined, gathered: Partial<Gathered>) =>
    withRetries(() =>
      api.send<KioskVisit>('POST', '/v1/kiosk/invitee/checkin', checkinBody(invitee, requirements, gathered)),
    );

  /** Checks the guest in at once, or first asks the blocklist and then what the invitation lacks. */
  const confirm = async (invitee: FoundInvitee) => {
    setSending(true);
    try {
      const completion = completionOf(invitee, data, props.lang);
      if (completion.steps.length === 0) return props.onDone(await submit(invitee, undefined, {}), undefined);
      const { stop } = await withRetries(() =>
        api.send<{ stop: boolean }>('POST', '/v1/kiosk/screen', { visit: { id: visitId }, ticket: invitee.ticket }),
      );
      if (stop) return props.onStopped(invitee.firstName);
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
        api={api}
        steps={completing.steps}
        requirements={completing.requirements}
        data={data}
        lang={props.lang}
        signerName={shownName(chosen)}
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
        name={shownName(chosen)}
        lines={[
          chosen.hostName && t('invited.visiting', { host: chosen.hostName }),
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
  return (
    <FindScreen
      title={t('invited.title')}
      scanTitle={t('invited.scan')}
      searchLabel={t('invited.search')}
      searchHint={t('invited.searchHint')}
      query={query}
      onQuery={(text) => {
        setQuery(text);
        setFound([]);
        setMessage(undefined);
      }}
      submitLabel={t('common.continue')}
      onSubmit={() => {
        if (isCode) void find({ code: typed });
        else if (typed !== '') void find({ name: typed });
      }}
      results={
        found.length > 1
          ? found.map((invitee) => ({
              id: invitee.ticket,
              name: shownName(invitee),
              detail: [timeOfDay(props.lang, data.timeZone, invitee.expectedAt), invitee.hostName]
                .filter(Boolean)
                .join(' · '),
            }))
          : []
      }
      onPick={(ticket) => {
        const invitee = found.find((candidate) => candidate.ticket === ticket);
        if (invitee) offer(invitee);
      }}
      onScan={(text) => void find({ code: text })}
      message={message}
      onCancel={props.onCancel}
    />
  );
}
