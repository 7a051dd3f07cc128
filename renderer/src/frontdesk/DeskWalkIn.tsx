import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inLanguage } from '../../../local-api/visitor-types/rules.ts';
import { listQuery, withRetries } from '../api.ts';
import { Notice } from '../components/ui.tsx';
import { type AnswerProblem, answerItems, answerProblems } from '../custom-fields.ts';
import { requirementsOf } from '../flows/CheckinSteps.tsx';
import { CustomFieldsForm } from '../flows/CustomFieldsForm.tsx';
import { uuidV4 } from '../ids.ts';
import { Refusal } from '../problems.ts';
import { Check, draftTextFields, Section, Select, useAction } from '../settings/kit.tsx';
import type { HostSummary, Visit } from '../types.ts';
import { useBadgePrinter } from './badge-print.tsx';
import type { FrontDeskProps } from './props.ts';
import { mayPrintBadge } from './visit-state.ts';

const blank = { name: '', company: '', email: '', phone: '', document: '' };

/**
 * A visitor checked in by staff (a walk-in who cannot or will not use the screen): the visitor's details, the host,
 * and the company's custom fields and questionnaire, which the service requires of every check-in. The visit is
 * recorded as made at the front desk (`checkinType: DASHBOARD`); its badge can be printed at once.
 */
export function DeskWalkIn({ api, data, lang }: FrontDeskProps) {
  // The desk's session reads the hosts shown on the kiosk; the visitors' screens only search them by name.
  const [hosts, setHosts] = useState<HostSummary[]>([]);
  useEffect(() => {
    api.get<{ hosts: HostSummary[] }>(`/v1/hosts${listQuery('isActive', '==', 'true')}`).then(
      (answer) => setHosts(answer.hosts),
      () => undefined,
    );
  }, [api]);
  const { t } = useTranslation();
  const [draft, setDraft] = useState(blank);
  const [hostId, setHostId] = useState('');
  const [typeId, setTypeId] = useState(data.visitorTypes.length > 1 ? '' : (data.visitorTypes[0]?.id ?? ''));
  const type = data.visitorTypes.find((candidate) => candidate.id === typeId);
  // What the visitor's type (or the kiosk) asks: the service requires the same of this check-in.
  const { rules, fieldDefs, questionDefs } = requirementsOf(data, type, lang);
  const [askHost, setAskHost] = useState<boolean>();
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Record<string, AnswerProblem>>({});
  const [visitId, setVisitId] = useState(uuidV4);
  const [done, setDone] = useState<Visit>();
  const printer = useBadgePrinter(api, data, lang);
  const { busy, notice, run } = useAction();

  const save = () =>
    run(async () => {
      if (!draft.name.trim()) throw new Refusal(t('deskWalkIn.nameNeeded'));
      const found = answerProblems([...fieldDefs, ...questionDefs], answers);
      setProblems(found);
      if (Object.keys(found).length > 0) throw new Refusal(t('deskWalkIn.answersNeeded'));
      const visitor = Object.fromEntries(
        Object.entries(draft)
          .map(([key, value]) => [key, value.trim()])
          .filter(([, value]) => value !== ''),
      );
      const visit = await withRetries(() =>
        api.send<Visit>('POST', '/v1/visits', {
          visit: {
            id: visitId,
            hostId: hostId || null,
            checkinType: 'DASHBOARD',
            customFields: answerItems(fieldDefs, answers, 'FIELD'),
            questionnaireFields: answerItems(questionDefs, answers, 'QUESTIONNAIRE'),
            ...(type ? { visitorTypeId: type.id } : {}),
            ...((askHost ?? rules.requireAuthorization) ? { authorizationStatus: 'AWAITING' } : {}),
          },
          visitor,
        }),
      );
      setDone(visit);
      setDraft(blank);
      setAnswers({});
      setVisitId(uuidV4());
      if (visit.visitorStatus === 'BLOCKED') throw new Refusal(t('deskWalkIn.blocked', { name: visit.name ?? '' }));
      return t(visit.authorizationStatus === 'waiting' ? 'deskWalkIn.waiting' : 'deskWalkIn.checkedIn', {
        name: visit.name ?? '',
      });
    });

  const text = draftTextFields(draft, setDraft);
  return (
    <div className="desk-walk-in">
      <Section
        title={t('deskWalkIn.title')}
        onSave={save}
        saveLabel={t('deskWalkIn.checkIn')}
        busy={busy}
        notice={notice}
      >
        {text('name', t('visitor.name'), { required: true, maxLength: 200 })}
        {text('company', t('visitor.company'))}
        {text('email', t('visitor.email'), { type: 'email' })}
        {text('phone', t('visitor.phone'), { type: 'tel' })}
        {text('document', t('visitor.document'))}
        <Select
          label={t('deskWalkIn.host')}
          value={hostId}
          options={[
            { value: '', label: t('deskWalkIn.noHost') },
            ...hosts.map((host) => ({
              value: host.id,
              label: host.sector ? `${host.name} (${host.sector})` : host.name,
            })),
          ]}
          onChange={setHostId}
        />
        {data.visitorTypes.length > 1 && (
          <Select
            label={t('deskWalkIn.type')}
            value={typeId}
            options={[
              { value: '', label: t('deskWalkIn.noType') },
              ...data.visitorTypes.map((candidate) => ({
                value: candidate.id,
                label: inLanguage(candidate.localizedName, lang, candidate.name),
              })),
            ]}
            onChange={setTypeId}
          />
        )}
        <Check label={t('deskWalkIn.askHost')} checked={askHost ?? rules.requireAuthorization} onChange={setAskHost} />
        {fieldDefs.length + questionDefs.length > 0 && (
          <CustomFieldsForm
            defs={[...fieldDefs, ...questionDefs]}
            answers={answers}
            problems={problems}
            lang={lang}
            onChange={(id, value) => setAnswers({ ...answers, [id]: value })}
          />
        )}
      </Section>
      {done && mayPrintBadge(done) && (
        <button type="button" className="btn btn-secondary" disabled={busy} onClick={() => run(printer.print(done))}>
          {t('deskWalkIn.printBadge', { name: done.name ?? '' })}
        </button>
      )}
      {printer.badge}
      {hosts.length === 0 && <Notice kind="info">{t('deskWalkIn.noHosts')}</Notice>}
    </div>
  );
}
