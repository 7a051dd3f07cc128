import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type AnswerProblem, answerItems, answerProblems } from '../custom-fields.ts';
import { CustomFieldsForm } from '../flows/CustomFieldsForm.tsx';
import { completionOf } from '../flows/Invited.tsx';
import { Refusal } from '../problems.ts';
import { TextInput, useAction } from '../settings/kit.tsx';
import type { Invitee } from '../types.ts';
import type { FrontDeskProps } from './props.ts';

/** What the service asks of a waiver's reason (docs/api.md, invitee check-in). */
const minReason = 3;

/**
 * The front desk checking in an expected guest whose invitation lacks answers the company requires: staff ask the
 * guest and fill them in, or check the guest in without them, giving a reason the audit log keeps (`waiveReason`).
 */
export function ExpectedCheckin(
  props: Pick<FrontDeskProps, 'api' | 'data' | 'lang'> & {
    invitee: Invitee;
    onDone: (sentence: string) => void;
    onCancel: () => void;
  },
) {
  const { t } = useTranslation();
  const { api, invitee } = props;
  const { requirements } = completionOf(invitee, props.data, props.lang);
  const defs = [...requirements.fieldDefs, ...requirements.questionDefs];
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [problems, setProblems] = useState<Record<string, AnswerProblem>>({});
  const [reason, setReason] = useState('');
  const { busy, notice, run } = useAction();
  const path = `/v1/visit/inviteeCheckin/${invitee.id}`;
  const name = invitee.name ?? '';

  const answered = () =>
    run(async () => {
      const found = answerProblems(defs, answers);
      setProblems(found);
      if (Object.keys(found).length > 0) throw new Refusal(t('deskWalkIn.answersNeeded'));
      await api.send('POST', path, {
        checkinType: 'DASHBOARD',
        customFields: answerItems(requirements.fieldDefs, answers, 'FIELD'),
        questionnaireFields: answerItems(requirements.questionDefs, answers, 'QUESTIONNAIRE'),
      });
      props.onDone(t('expected.checkedIn', { name }));
      return undefined;
    });
  const waived = () =>
    run(async () => {
      if (reason.trim().length < minReason) throw new Refusal(t('expectedCheckin.reasonNeeded'));
      await api.send('POST', path, {
        checkinType: 'DASHBOARD',
        customFields: answerItems(requirements.fieldDefs, answers, 'FIELD'),
        questionnaireFields: answerItems(requirements.questionDefs, answers, 'QUESTIONNAIRE'),
        waiveReason: reason.trim(),
      });
      props.onDone(t('expectedCheckin.waived', { name }));
      return undefined;
    });

  return (
    <section className="fd-section expected-checkin" aria-labelledby="expected-checkin-title">
      <h2 id="expected-checkin-title" className="wrap">
        {t('expectedCheckin.title', { name })}
      </h2>
      <p>{t('expectedCheckin.intro')}</p>
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void answered();
        }}
      >
        <CustomFieldsForm
          defs={defs}
          answers={answers}
          problems={problems}
          lang={props.lang}
          onChange={(id, value) => setAnswers({ ...answers, [id]: value })}
        />
        <div className="card-actions">
          <button type="button" className="btn btn-secondary" onClick={props.onCancel}>
            {t('content.cancel')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy}>
            {t('expected.checkIn')}
          </button>
        </div>
      </form>
      <form
        className="form skip-form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void waived();
        }}
      >
        <TextInput label={t('expectedCheckin.reason')} value={reason} onChange={setReason} maxLength={500} />
        <button type="submit" className="btn btn-secondary" disabled={busy}>
          {t('expectedCheckin.skip')}
        </button>
      </form>
      {notice}
    </section>
  );
}
