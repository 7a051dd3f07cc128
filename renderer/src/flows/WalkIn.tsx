import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Api, withRetries } from '../api.ts';
import { Field, Notice, Screen, Spinner } from '../components/ui.tsx';
import { type AnswerProblem, answerItems, answerProblems, ndaTextFor } from '../custom-fields.ts';
import { uuidV4 } from '../ids.ts';
import type { KioskData } from '../kiosk-data.ts';
import { problemText } from '../problems.ts';
import type { Visit } from '../types.ts';
import {
  askedFields,
  maxLength,
  type Problem,
  type VisitorData,
  type VisitorKey,
  visitorBody,
  visitorProblems,
} from '../visitor-rules.ts';
import { CustomFieldsForm } from './CustomFieldsForm.tsx';
import { HostPicker } from './HostPicker.tsx';
import { NdaStep } from './NdaStep.tsx';
import { PictureStep } from './PictureStep.tsx';

type Step = 'details' | 'host' | 'fields' | 'questionnaire' | 'picture' | 'nda';

const inputKind: Partial<Record<VisitorKey, { type: string; inputMode?: 'email' | 'tel' | 'numeric' }>> = {
  email: { type: 'email', inputMode: 'email' },
  phone: { type: 'tel', inputMode: 'tel' },
  cpf: { type: 'text', inputMode: 'numeric' },
};

/**
 * A walk-in check-in, one short screen per step: the visitor's data, whom they visit, the company's custom fields
 * and questionnaire, a picture and the agreement; steps the company does not use are left out. The visit's id is
 * made once, so sending again after a lost answer cannot check the visitor in twice.
 */
export function WalkIn(props: {
  api: Api;
  data: KioskData;
  lang: string;
  onDone: (visit: Visit, picture: string | undefined) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { data } = props;
  const fields = askedFields(data.settings.visitorFields);
  const fieldDefs = data.customFields.filter((d) => (d.location ?? 'FIELD') === 'FIELD');
  const questionDefs = data.customFields.filter((d) => d.location === 'QUESTIONNAIRE');
  const steps = (
    [
      'details',
      data.hosts.length > 0 && 'host',
      fieldDefs.length > 0 && 'fields',
      questionDefs.length > 0 && 'questionnaire',
      data.settings.pictureMode !== 'off' && 'picture',
      ndaTextFor(data.settings, props.lang).trim() !== '' && 'nda',
    ] as const
  ).filter((s): s is Step => s !== false);

  const [visitId] = useState(uuidV4);
  const [index, setIndex] = useState(0);
  const [visitor, setVisitor] = useState<VisitorData>({});
  const [hostId, setHostId] = useState<string>();
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [picture, setPicture] = useState<string>();
  const [problems, setProblems] = useState<Partial<Record<VisitorKey, Problem>>>({});
  const [answerErrors, setAnswerErrors] = useState<Record<string, AnswerProblem>>({});
  const [hostError, setHostError] = useState<string>();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<string>();

  const step = steps[index] ?? 'details';
  const back = () => (index === 0 ? props.onCancel() : setIndex(index - 1));
  const frame = {
    title: t(`walkIn.${step}`),
    step: { current: index + 1, total: steps.length },
    onBack: back,
    onCancel: props.onCancel,
  };

  const submit = async (nda?: string) => {
    setSending(true);
    setFailure(undefined);
    const body = {
      visit: {
        id: visitId,
        hostId: hostId ?? null,
        checkinType: 'IPAD',
        customFields: answerItems(fieldDefs, answers, 'FIELD'),
        questionnaireFields: answerItems(questionDefs, answers, 'QUESTIONNAIRE'),
        ...(data.settings.requireAuthorization ? { authorizationStatus: 'AWAITING' } : {}),
      },
      visitor: visitorBody(visitor, fields),
      ...(picture ? { visitPicture: picture.slice(picture.indexOf(',') + 1) } : {}),
      ...(nda ? { visitNda: nda } : {}),
    };
    try {
      const visit = await withRetries(() => props.api.send<Visit>('POST', '/v1/visits', body));
      props.onDone(visit, picture);
    } catch (error) {
      setSending(false);
      setFailure(problemText(error));
    }
  };

  const next = (nda?: string) => {
    if (index + 1 < steps.length) setIndex(index + 1);
    else void submit(nda);
  };

  const checkThenNext = () => {
    if (step === 'details') {
      const found = visitorProblems(visitor, fields);
      setProblems(found);
      if (Object.keys(found).length > 0) return;
    } else if (step === 'host') {
      setHostError(hostId ? undefined : t('host.choose'));
      if (!hostId) return;
    } else {
      const found = answerProblems(step === 'fields' ? fieldDefs : questionDefs, answers);
      setAnswerErrors(found);
      if (Object.keys(found).length > 0) return;
    }
    next();
  };

  if (sending || failure) {
    return (
      <Screen
        title={t('walkIn.title')}
        onBack={sending ? undefined : back}
        onCancel={props.onCancel}
        actions={
          failure && (
            <button type="button" className="btn btn-primary" onClick={() => submit()}>
              {t('common.retry')}
            </button>
          )
        }
      >
        {sending ? <Spinner label={t('walkIn.sending')} /> : <Notice kind="error">{failure}</Notice>}
      </Screen>
    );
  }

  if (step === 'picture') {
    return (
      <PictureStep
        frame={frame}
        mode={data.settings.pictureMode}
        picture={picture}
        onPicture={setPicture}
        onNext={() => next()}
      />
    );
  }
  if (step === 'nda') {
    return (
      <NdaStep
        frame={frame}
        text={ndaTextFor(data.settings, props.lang)}
        signerName={visitor.name?.trim() ?? ''}
        lang={props.lang}
        timeZone={data.timeZone}
        onSigned={(pdf) => next(pdf)}
      />
    );
  }

  const invalid = Object.keys(step === 'details' ? problems : answerErrors).length > 0;
  return (
    <Screen
      {...frame}
      actions={
        <button type="button" className="btn btn-primary" onClick={checkThenNext}>
          {t('common.next')}
        </button>
      }
    >
      <form
        className="form"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          checkThenNext();
        }}
      >
        {step === 'details' &&
          fields.map(({ key, required }) => (
            <Field
              key={key}
              label={t(`visitor.${key}`)}
              optional={!required}
              error={problems[key] && t(`validation.${problems[key]}`)}
            >
              {(control) => (
                <input
                  {...control}
                  type={inputKind[key]?.type ?? 'text'}
                  inputMode={inputKind[key]?.inputMode}
                  // A shared screen: the browser must not offer one visitor what another typed.
                  autoComplete="off"
                  autoCapitalize={key === 'name' ? 'words' : 'off'}
                  spellCheck={false}
                  maxLength={maxLength[key]}
                  value={visitor[key] ?? ''}
                  onChange={(e) => setVisitor({ ...visitor, [key]: e.target.value })}
                />
              )}
            </Field>
          ))}
        {step === 'host' && (
          <HostPicker
            hosts={data.hosts}
            hostId={hostId}
            error={hostError}
            onChange={(id) => {
              setHostId(id);
              if (id) setHostError(undefined);
            }}
          />
        )}
        {(step === 'fields' || step === 'questionnaire') && (
          <CustomFieldsForm
            defs={step === 'fields' ? fieldDefs : questionDefs}
            answers={answers}
            problems={answerErrors}
            lang={props.lang}
            onChange={(id, value) => setAnswers({ ...answers, [id]: value })}
          />
        )}
        {invalid && <Notice kind="error">{t('validation.check')}</Notice>}
        {/* Enter in a field moves on, as the Next button does. */}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      </form>
    </Screen>
  );
}
