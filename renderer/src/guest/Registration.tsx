import { type ChangeEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { RegistrationForm } from '../../../local-api/registration/schema.ts';
import { Notice, Screen, Spinner } from '../components/ui.tsx';
import { type AnswerProblem, answerItems, answerProblems } from '../custom-fields.ts';
import { CustomFieldsForm } from '../flows/CustomFieldsForm.tsx';
import { NdaStep, type SignedAgreement } from '../flows/NdaStep.tsx';
import { PictureStep } from '../flows/PictureStep.tsx';
import type { Lang } from '../i18n/index.ts';
import { dateAndTime } from '../time.ts';
import { GuestProblem, guestRequest } from './request.ts';
import { guestWords } from './words.ts';

type Step = 'fields' | 'questionnaire' | 'picture' | 'nda';

/** The longest side of a picture chosen from a file: a badge picture needs no more (the kiosk's is 480×360). */
const fileSide = 640;

/** A picture file (a phone's photo, megabytes) as a JPEG data URL of at most `fileSide` pixels a side. */
async function pictureOfFile(file: File): Promise<string> {
  const bitmap = await createImageBitmap(file);
  const scale = Math.min(1, fileSide / Math.max(bitmap.width, bitmap.height));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round(bitmap.width * scale);
  canvas.height = Math.round(bitmap.height * scale);
  const context = canvas.getContext('2d');
  if (!context) throw new Error('no 2D canvas');
  context.drawImage(bitmap, 0, 0, canvas.width, canvas.height);
  bitmap.close();
  return canvas.toDataURL('image/jpeg', 0.85);
}

const base64Of = (dataUrl: string) => dataUrl.slice(dataUrl.indexOf(',') + 1);

/**
 * The guest's pre-registration, as the kiosk would ask it and with the kiosk's own steps: the company's required
 * fields, its questionnaire, a picture (the camera, or a file on a phone) and the agreement signed. Sent at the end
 * in one request; shown again, with what was registered, to change it until the visit.
 */
export function Registration({ form, base }: { form: RegistrationForm; base: string }) {
  const { t } = useTranslation();
  const lang = form.lang as Lang;
  const words = guestWords(lang);
  const timeZone = form.company.timezone;
  const [registeredAt, setRegisteredAt] = useState(form.registration.registeredAt);
  const [signedBefore, setSignedBefore] = useState(form.registration.signed);
  const [index, setIndex] = useState<number>();
  const [answers, setAnswers] = useState<Record<string, string>>(form.registration.answers);
  const [answerErrors, setAnswerErrors] = useState<Record<string, AnswerProblem>>({});
  const [picture, setPicture] = useState(form.registration.picture ?? undefined);
  const [sentPicture, setSentPicture] = useState(form.registration.picture ?? undefined);
  const [chosenFiles, setChosenFiles] = useState(0);
  const [fileProblem, setFileProblem] = useState<string>();
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<{ text: string; retry: () => void }>();

  const steps = (
    [
      form.fields.length > 0 && 'fields',
      form.questions.length > 0 && 'questionnaire',
      form.pictureMode !== 'off' && 'picture',
      form.ndaText.trim() !== '' && !signedBefore && 'nda',
    ] as const
  ).filter((step) => step !== false) as Step[];
  const step = index === undefined ? undefined : steps[index];

  const submit = async (nda?: SignedAgreement) => {
    setSending(true);
    setFailure(undefined);
    try {
      const saved = await guestRequest<{ registeredAt: string }>('POST', `${base}/registration?lang=${lang}`, {
        customFields: answerItems(form.fields, answers, 'FIELD'),
        questionnaireFields: answerItems(form.questions, answers, 'QUESTIONNAIRE'),
        ...(picture === sentPicture ? {} : { picture: picture ? base64Of(picture) : null }),
        ...(nda ? { nda: nda.pdf, ndaSignature: nda.signature } : {}),
      });
      setRegisteredAt(saved.registeredAt);
      setSentPicture(picture);
      if (nda) setSignedBefore(true);
      setIndex(undefined);
    } catch (error) {
      const text = error instanceof GuestProblem ? error.text(words) : t('errors.UNKNOWN');
      setFailure({ text, retry: () => void submit(nda) });
    } finally {
      setSending(false);
    }
  };

  const next = (nda?: SignedAgreement) => {
    if (index !== undefined && index + 1 < steps.length) setIndex(index + 1);
    else void submit(nda);
  };
  const frame = (title: string) => ({
    title,
    step: { current: (index ?? 0) + 1, total: steps.length },
    onBack: () => setIndex(index ? index - 1 : undefined),
  });

  if (sending || failure) {
    return (
      <Screen
        title={words.title}
        onBack={sending ? undefined : () => setFailure(undefined)}
        actions={
          failure && (
            <button type="button" className="btn btn-primary btn-main" onClick={failure.retry}>
              {t('common.retry')}
            </button>
          )
        }
      >
        {sending ? <Spinner label={words.sending} /> : <Notice kind="error">{failure?.text}</Notice>}
      </Screen>
    );
  }

  if (step === undefined) {
    const when = dateAndTime(lang, timeZone, form.guest.expectedAt);
    const { firstName, hostName } = form.guest;
    return (
      <Screen
        title={registeredAt ? words.registeredTitle : words.title}
        actions={
          <button
            type="button"
            className="btn btn-primary btn-main"
            onClick={() => (steps.length ? setIndex(0) : submit())}
          >
            {registeredAt ? words.change : steps.length ? words.start : words.send}
          </button>
        }
      >
        <p className="lead">
          {registeredAt
            ? words.registered({ firstName, until: dateAndTime(lang, timeZone, form.closesAt) })
            : hostName
              ? words.intro({ firstName, host: hostName, when })
              : words.introNoHost({ firstName, when })}
        </p>
        {registeredAt && signedBefore && form.ndaText.trim() !== '' && <p>{words.keepAgreement}</p>}
      </Screen>
    );
  }

  if (step === 'picture') {
    const choose = async (event: ChangeEvent<HTMLInputElement>) => {
      const file = event.target.files?.[0];
      event.target.value = '';
      if (!file) return;
      try {
        setPicture(await pictureOfFile(file));
        setFileProblem(undefined);
        // The step is shown again from the start, with the chosen picture to use or retake.
        setChosenFiles(chosenFiles + 1);
      } catch {
        setFileProblem(words.fileProblem);
      }
    };
    return (
      <>
        <PictureStep
          key={chosenFiles}
          frame={frame(words.picture)}
          mode={form.pictureMode}
          picture={picture}
          onPicture={setPicture}
          onNext={() => next()}
        />
        <aside className="guest-file" aria-label={words.fromFile}>
          <label className="btn btn-secondary">
            <input type="file" accept="image/jpeg,image/png" onChange={(event) => void choose(event)} />
            <span>{words.fromFile}</span>
          </label>
          {fileProblem && <Notice kind="error">{fileProblem}</Notice>}
        </aside>
      </>
    );
  }

  if (step === 'nda') {
    return (
      <NdaStep
        frame={frame(words.agreement)}
        text={form.ndaText}
        signerName={form.guest.name}
        lang={lang}
        timeZone={timeZone}
        onSigned={(nda) => next(nda)}
      />
    );
  }

  const defs = step === 'fields' ? form.fields : form.questions;
  const checkThenNext = () => {
    const found = answerProblems(defs, answers);
    setAnswerErrors(found);
    if (Object.keys(found).length === 0) next();
  };
  return (
    <Screen
      {...frame(step === 'fields' ? words.fields : words.questionnaire)}
      actions={
        <button type="button" className="btn btn-primary btn-main" onClick={checkThenNext}>
          {t('common.next')}
        </button>
      }
    >
      <form
        className="form"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          checkThenNext();
        }}
      >
        <CustomFieldsForm
          defs={defs}
          answers={answers}
          problems={answerErrors}
          lang={lang}
          onChange={(id, value) => setAnswers({ ...answers, [id]: value })}
        />
        {Object.keys(answerErrors).length > 0 && <Notice kind="error">{t('validation.check')}</Notice>}
        <button type="submit" hidden tabIndex={-1} aria-hidden="true" />
      </form>
    </Screen>
  );
}
