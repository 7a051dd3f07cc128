import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { asksField, type EffectiveRules, effectiveRules } from '../../../local-api/visitor-types/rules.ts';
import type { Api } from '../api.ts';
import { Field, Notice, Screen, Spinner } from '../components/ui.tsx';
import { type AnswerProblem, answerProblems } from '../custom-fields.ts';
import { useMediaQuery } from '../hooks.ts';
import type { KioskData } from '../kiosk-data.ts';
import { problemText } from '../problems.ts';
import type { CustomFieldDefinition, KioskVisit, VisitorType } from '../types.ts';
import {
  askedFields,
  maxLength,
  type Problem,
  type VisitorData,
  type VisitorKey,
  visitorProblems,
} from '../visitor-rules.ts';
import { CustomFieldsForm } from './CustomFieldsForm.tsx';
import { type HostChoice, HostPicker } from './HostPicker.tsx';
import { NdaStep, type SignedAgreement } from './NdaStep.tsx';
import { PictureStep } from './PictureStep.tsx';

/** `welcomeBack`: a returning visitor's filled-in details, host and consent, on one screen (instead of `details`). */
export type Step = 'details' | 'welcomeBack' | 'host' | 'fields' | 'questionnaire' | 'picture' | 'nda';

/**
 * Where "About you" and "A few more details" ask one question per screen: a portrait screen, whose lower half a
 * form of several fields leaves empty while a tablet's on-screen keyboard covers the rest. Wider screens keep the
 * form (every field in view, one tap on Next).
 */
export const oneQuestionQuery = '(orientation: portrait)';

/** What a visitor of a type is asked at this kiosk: the type's rules where it has them, the kiosk's elsewhere. */
export interface Requirements {
  rules: EffectiveRules;
  visitorFields: { key: VisitorKey; required: boolean }[];
  fieldDefs: CustomFieldDefinition[];
  questionDefs: CustomFieldDefinition[];
}

export function requirementsOf(data: KioskData, type: VisitorType | undefined, lang: string): Requirements {
  const rules = effectiveRules(type, data.settings, lang);
  const asked = data.customFields.filter((def) => asksField(rules, def.id));
  return {
    rules,
    visitorFields: askedFields(rules.visitorFields),
    fieldDefs: asked.filter((def) => (def.location ?? 'FIELD') === 'FIELD'),
    questionDefs: asked.filter((def) => def.location === 'QUESTIONNAIRE'),
  };
}

/** What the steps gathered, for the check-in to send. */
export interface Gathered {
  visitor: VisitorData;
  host: HostChoice;
  answers: Record<string, string>;
  picture: string | undefined;
  nda: SignedAgreement | undefined;
  /** The answer to "remember me for next time", when the check-in asked it and the visitor answered. */
  remember: boolean | undefined;
}

/** What a check-in starts with: a returning visitor's own details, last host and standing consent. */
export interface Prefilled {
  visitor: VisitorData;
  host: HostChoice | undefined;
  remember: boolean;
}

/**
 * "Remember me for next time?": a yes or a no, neither chosen until the visitor chooses (docs/kiosk.md, "Returning
 * visitors"); no answer is not a yes.
 */
function RememberChoice(props: { value: boolean | undefined; onChange: (value: boolean) => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <fieldset className="remember" aria-describedby={`${id}-hint`}>
      <legend>{t('returning.rememberQuestion')}</legend>
      <p className="hint" id={`${id}-hint`}>
        {t('returning.rememberHint')}
      </p>
      <div className="remember-choices">
        {([true, false] as const).map((answer) => (
          <label key={String(answer)} className={`remember-choice${props.value === answer ? ' chosen' : ''}`}>
            <input
              type="radio"
              name={`${id}-remember`}
              checked={props.value === answer}
              onChange={() => props.onChange(answer)}
            />
            {t(answer ? 'returning.rememberYes' : 'returning.rememberNo')}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

const inputKind: Partial<Record<VisitorKey, { type: string; inputMode?: 'email' | 'tel' | 'numeric' }>> = {
  email: { type: 'email', inputMode: 'email' },
  phone: { type: 'tel', inputMode: 'tel' },
  cpf: { type: 'text', inputMode: 'numeric' },
};

/**
 * The problems still there among those already shown: re-checked as the visitor types, so an error goes the moment
 * it is fixed (and comes back if it is undone), while a field not yet tried is not told off half-typed.
 */
function stillWrong<Found extends Record<string, unknown>>(
  found: Found,
  shown: Readonly<Record<string, unknown>>,
): Found {
  return Object.fromEntries(Object.entries(found).filter(([key]) => key in shown)) as Found;
}

/**
 * The steps of a check-in, one short screen each: the visitor's data, whom they visit, the company's custom fields
 * and questionnaire, a picture and the agreement, as `steps` lists them. After the visitor's data, `screen` may
 * stop the visitor (the blocklist) before anything else is asked; after the last step, `submit` checks them in.
 */
export function CheckinSteps(props: {
  api: Api;
  steps: readonly Step[];
  requirements: Requirements;
  data: KioskData;
  lang: string;
  /** Who signs the agreement when the name was not typed here (an invited guest). */
  signerName?: string;
  /** Whether the check-in asks "remember me for next time" (a walk-in does). */
  asksRemember?: boolean;
  /** A returning visitor's details, host and consent, filled in (editable). */
  prefilled?: Prefilled | undefined;
  /** Offered on the first question of "About you": "I have been here before". */
  onReturning?: (() => void) | undefined;
  screen?: (visitor: VisitorData) => Promise<boolean>;
  submit: (gathered: Gathered) => Promise<KioskVisit>;
  onDone: (visit: KioskVisit, picture: string | undefined) => void;
  onStopped: (name: string) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { steps, requirements, data } = props;
  const { fieldDefs, questionDefs, visitorFields } = requirements;

  const [index, setIndex] = useState(0);
  const [visitor, setVisitor] = useState<VisitorData>(props.prefilled?.visitor ?? {});
  const [host, setHost] = useState<HostChoice | undefined>(props.prefilled?.host);
  const [remember, setRemember] = useState<boolean | undefined>(props.prefilled?.remember);
  const [hostMissing, setHostMissing] = useState(false);
  const [answers, setAnswers] = useState<Record<string, string>>({});
  const [picture, setPicture] = useState<string>();
  const [problems, setProblems] = useState<Partial<Record<VisitorKey, Problem>>>({});
  const [answerErrors, setAnswerErrors] = useState<Record<string, AnswerProblem>>({});
  const [busy, setBusy] = useState<'screening' | 'sending'>();
  const [failure, setFailure] = useState<{ text: string; retry: () => void }>();

  const oneAtATime = useMediaQuery(oneQuestionQuery);
  const [question, setQuestion] = useState(0);
  const form = useRef<HTMLFormElement>(null);
  const step = steps[index] ?? 'details';
  const asking = oneAtATime && (step === 'details' || step === 'fields');
  const questionCount = (of: Step | undefined) =>
    of === 'details' ? visitorFields.length : of === 'fields' ? fieldDefs.length : 1;
  /** To another step: at its first question going forward, at its last coming back. */
  const goTo = (to: number, fromEnd = false) => {
    setIndex(to);
    setQuestion(fromEnd ? questionCount(steps[to]) - 1 : 0);
  };
  const back = () => {
    if (asking && question > 0) setQuestion(question - 1);
    else if (index === 0) props.onCancel();
    else goTo(index - 1, true);
  };

  // A new question takes the focus, as a new step does (its heading stays the step's).
  // biome-ignore lint/correctness/useExhaustiveDependencies: it runs when the question changes, which it does not read
  useEffect(() => {
    if (asking) form.current?.querySelector<HTMLElement>('input, select, textarea')?.focus();
  }, [asking, question]);
  const frame = {
    title: t(`walkIn.${step}`),
    step: { current: index + 1, total: steps.length },
    onBack: back,
    onCancel: props.onCancel,
  };

  /** What the last step adds (the signed agreement, the host just chosen) comes with the call: state lags. */
  type Last = { nda?: SignedAgreement; host?: HostChoice };

  const submit = async (last: Last) => {
    setBusy('sending');
    setFailure(undefined);
    const chosen = last.host ?? host ?? { kind: 'none' };
    try {
      props.onDone(await props.submit({ visitor, host: chosen, answers, picture, nda: last.nda, remember }), picture);
    } catch (error) {
      setBusy(undefined);
      setFailure({ text: problemText(error), retry: () => void submit(last) });
    }
  };

  const next = (last: Last = {}) => {
    if (index + 1 < steps.length) goTo(index + 1);
    else void submit(last);
  };

  /** After the visitor says who they are, the blocklist is asked before anything else. */
  const screenThenNext = async () => {
    if (!props.screen) return next();
    setBusy('screening');
    setFailure(undefined);
    try {
      if (await props.screen(visitor)) return props.onStopped(visitor.name?.trim() ?? '');
      setBusy(undefined);
      next();
    } catch (error) {
      setBusy(undefined);
      setFailure({ text: problemText(error), retry: () => void screenThenNext() });
    }
  };

  /** What the screen shows of a step's questions: all of them, or the one being asked. */
  const shown = <T,>(all: readonly T[]): readonly T[] => (asking ? all.slice(question, question + 1) : all);

  /**
   * What "Welcome back" shows of the visitor's details: the name and company filled in, and any other field the
   * check-in requires that is still empty.
   */
  const reviewed = visitorFields.filter(
    ({ key, required }) => key === 'name' || key === 'company' || (required && !visitor[key]?.trim()),
  );

  const checkThenNext = () => {
    if (step === 'welcomeBack') {
      const found = visitorProblems(visitor, reviewed);
      setProblems(found);
      setHostMissing(host === undefined);
      if (Object.keys(found).length > 0 || host === undefined) return;
      void screenThenNext();
      return;
    }
    if (step === 'details') {
      const found = visitorProblems(visitor, [...shown(visitorFields)]);
      setProblems(found);
      if (Object.keys(found).length > 0) return;
      if (asking && question + 1 < visitorFields.length) setQuestion(question + 1);
      else void screenThenNext();
      return;
    }
    const defs = step === 'fields' ? fieldDefs : questionDefs;
    const found = answerProblems([...shown(defs)], answers);
    setAnswerErrors(found);
    if (Object.keys(found).length > 0) return;
    if (asking && question + 1 < defs.length) setQuestion(question + 1);
    else next();
  };

  if (busy === 'sending' || failure) {
    return (
      <Screen
        title={t('walkIn.title')}
        onBack={busy ? undefined : () => setFailure(undefined)}
        onCancel={props.onCancel}
        actions={
          failure && (
            <button type="button" className="btn btn-primary btn-main" onClick={failure.retry}>
              {t('common.retry')}
            </button>
          )
        }
      >
        {busy ? <Spinner label={t('walkIn.sending')} /> : <Notice kind="error">{failure?.text}</Notice>}
      </Screen>
    );
  }

  if (step === 'picture') {
    return (
      <PictureStep
        frame={frame}
        mode={requirements.rules.pictureMode}
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
        text={requirements.rules.ndaText}
        signerName={props.signerName ?? visitor.name?.trim() ?? ''}
        lang={props.lang}
        timeZone={data.timeZone}
        onSigned={(nda) => next({ nda })}
      />
    );
  }
  if (step === 'host') {
    return (
      <Screen
        {...frame}
        actions={
          host && (
            <button type="button" className="btn btn-primary btn-main" onClick={() => next()}>
              {t('common.next')}
            </button>
          )
        }
      >
        <HostPicker
          api={props.api}
          choice={host}
          onChange={(choice) => {
            setHost(choice);
            // Choosing is the step's answer: the kiosk moves on without a "Next".
            if (choice) next({ host: choice });
          }}
        />
      </Screen>
    );
  }

  const invalid = Object.keys(step === 'details' || step === 'welcomeBack' ? problems : answerErrors).length > 0;
  const lastQuestion = !asking || question + 1 >= visitorFields.length;
  /** "I have been here before", on the first question of "About you" of a walk-in. */
  const returningOffer = () =>
    props.onReturning &&
    question === 0 && (
      <button type="button" className="btn btn-secondary btn-returning" onClick={props.onReturning}>
        {t('returning.beenHere')}
      </button>
    );
  return (
    <Screen
      {...frame}
      actions={
        busy === 'screening' ? (
          <Spinner label={t('common.loading')} />
        ) : (
          <button type="button" className="btn btn-primary btn-main" onClick={checkThenNext}>
            {t('common.next')}
          </button>
        )
      }
    >
      <form
        ref={form}
        className={asking ? 'form form-one' : 'form'}
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          checkThenNext();
        }}
      >
        {asking && questionCount(step) > 1 && (
          <p className="step">{t('walkIn.question', { current: question + 1, total: questionCount(step) })}</p>
        )}
        {step === 'details' && returningOffer()}
        {(step === 'details' || step === 'welcomeBack') &&
          (step === 'details' ? shown(visitorFields) : reviewed).map(({ key, required }, position) => (
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
                  // biome-ignore lint/a11y/noAutofocus: the screen asks for the name first; the visitor types at once
                  autoFocus={position === 0 && step === 'details'}
                  // A shared screen: the browser must not offer one visitor what another typed.
                  autoComplete="off"
                  autoCapitalize={key === 'name' ? 'words' : 'off'}
                  spellCheck={false}
                  maxLength={maxLength[key]}
                  value={visitor[key] ?? ''}
                  onChange={(e) => {
                    const typed = { ...visitor, [key]: e.target.value };
                    setVisitor(typed);
                    setProblems(stillWrong(visitorProblems(typed, visitorFields), problems));
                  }}
                />
              )}
            </Field>
          ))}
        {(step === 'fields' || step === 'questionnaire') && (
          <CustomFieldsForm
            defs={step === 'fields' ? shown(fieldDefs) : questionDefs}
            answers={answers}
            problems={answerErrors}
            lang={props.lang}
            onChange={(id, value) => {
              const given = { ...answers, [id]: value };
              setAnswers(given);
              setAnswerErrors(
                stillWrong(answerProblems(step === 'fields' ? fieldDefs : questionDefs, given), answerErrors),
              );
            }}
          />
        )}
        {step === 'welcomeBack' && (
          <div className="field">
            <HostPicker
              api={props.api}
              choice={host}
              onChange={(choice) => {
                setHost(choice);
                if (choice) setHostMissing(false);
              }}
            />
            {hostMissing && <p className="error">{t('returning.chooseHost')}</p>}
          </div>
        )}
        {props.asksRemember && (step === 'welcomeBack' || (step === 'details' && lastQuestion)) && (
          <RememberChoice value={remember} onChange={setRemember} />
        )}
        {invalid && <Notice kind="error">{t('validation.check')}</Notice>}
        {/* Enter in a field moves on, as the Next button does. */}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      </form>
    </Screen>
  );
}
