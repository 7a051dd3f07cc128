import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Api, ApiProblem } from '../api.ts';
import { Scanner } from '../components/Scanner.tsx';
import { Field, Notice, Screen, Spinner } from '../components/ui.tsx';
import { problemText } from '../problems.ts';
import type { ReturningVisitor } from '../types.ts';

/** The digits of a one-time code; the last one typed checks it at once. */
const codeDigits = 6;

/**
 * "Been here before?": a returning visitor proves who they are before the kiosk shows anything of them (docs/kiosk.md,
 * "Returning visitors"): the QR code of an earlier badge or invitation held up to the camera, or a one-time code
 * sent to their e-mail (or phone) and typed here. The service answers an address the same whether it knows it or
 * not, and so does this screen.
 */
export function Returning(props: {
  api: Api;
  lang: string;
  channels: readonly ('email' | 'sms')[];
  onFound: (visitor: ReturningVisitor) => void;
  onBack: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const { api } = props;
  const [address, setAddress] = useState('');
  const [challenge, setChallenge] = useState<string>();
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'error' | 'info'; text: string }>();
  const [notFound, setNotFound] = useState(false);
  const codeInput = useRef<HTMLInputElement>(null);
  const unknownCodes = useRef(new Set<string>());
  // Once a code is on its way, it is the one thing to type: the field takes the focus (and the tablet's keyboard).
  useEffect(() => {
    if (challenge !== undefined && !busy) codeInput.current?.focus();
  }, [challenge, busy]);

  const scan = async (text: string) => {
    // A code that found nobody, held up again, is not asked again: it would count against the kiosk's lookups.
    if (busy || unknownCodes.current.has(text)) return;
    setBusy(true);
    setMessage(undefined);
    try {
      props.onFound(await api.send<ReturningVisitor>('POST', '/v1/kiosk/returning/find', { code: text }));
    } catch (error) {
      setBusy(false);
      const unknown = error instanceof ApiProblem && error.type === 'NOT_FOUND';
      if (unknown) unknownCodes.current.add(text);
      setNotFound(unknown);
      setMessage({ kind: 'error', text: unknown ? t('returning.notFound') : problemText(error) });
    }
  };

  const sendCode = async () => {
    if (address.trim() === '' || busy) return;
    setBusy(true);
    setMessage(undefined);
    try {
      const answer = await api.send<{ challenge: string }>('POST', '/v1/kiosk/returning/code', {
        address: address.trim(),
        lang: props.lang,
      });
      setChallenge(answer.challenge);
      setCode('');
      setMessage({ kind: 'info', text: t('returning.sent') });
    } catch (error) {
      setMessage({ kind: 'error', text: problemText(error) });
    }
    setBusy(false);
  };

  const check = async (typed: string) => {
    if (!challenge || busy) return;
    setBusy(true);
    setMessage(undefined);
    try {
      props.onFound(await api.send<ReturningVisitor>('POST', '/v1/kiosk/returning/verify', { challenge, code: typed }));
    } catch (error) {
      setBusy(false);
      setCode('');
      if (error instanceof ApiProblem && error.type === 'CODE_EXPIRED') setChallenge(undefined);
      setMessage({ kind: 'error', text: problemText(error) });
    }
  };

  return (
    <Screen title={t('returning.title')} onBack={props.onBack} onCancel={props.onCancel}>
      <div className="find">
        <section className="find-scan">
          <h2>{t('returning.scan')}</h2>
          <Scanner onCode={(text) => void scan(text)} paused={busy} />
        </section>
        {props.channels.length > 0 && (
          <>
            <p className="find-or">{t('returning.or')}</p>
            <section className="find-search">
              {challenge === undefined ? (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    void sendCode();
                  }}
                >
                  <Field
                    label={t(props.channels.includes('sms') ? 'returning.emailOrPhone' : 'returning.email')}
                    hint={t('returning.addressHint')}
                  >
                    {(control) => (
                      <input
                        {...control}
                        type={props.channels.includes('sms') ? 'text' : 'email'}
                        inputMode={props.channels.includes('sms') ? 'text' : 'email'}
                        autoComplete="off"
                        spellCheck={false}
                        maxLength={254}
                        value={address}
                        onChange={(e) => setAddress(e.target.value)}
                      />
                    )}
                  </Field>
                  <button type="submit" className="btn btn-primary" disabled={busy}>
                    {t('returning.send')}
                  </button>
                </form>
              ) : (
                <form
                  onSubmit={(e) => {
                    e.preventDefault();
                    void check(code);
                  }}
                >
                  <Field label={t('returning.code')}>
                    {(control) => (
                      <input
                        {...control}
                        ref={codeInput}
                        inputMode="numeric"
                        autoComplete="one-time-code"
                        maxLength={codeDigits}
                        value={code}
                        onChange={(e) => {
                          const digits = e.target.value.replace(/\D/g, '').slice(0, codeDigits);
                          setCode(digits);
                          if (digits.length === codeDigits) void check(digits);
                        }}
                      />
                    )}
                  </Field>
                  <div className="actions-row">
                    <button type="submit" className="btn btn-primary" disabled={busy}>
                      {t('returning.check')}
                    </button>
                    <button type="button" className="btn btn-secondary" onClick={() => setChallenge(undefined)}>
                      {t('returning.again')}
                    </button>
                  </div>
                </form>
              )}
            </section>
          </>
        )}
      </div>
      {busy && <Spinner label={t('returning.checking')} />}
      {message && <Notice kind={message.kind}>{message.text}</Notice>}
      {notFound && (
        <button type="button" className="btn btn-secondary" onClick={props.onBack}>
          {t('returning.fillIn')}
        </button>
      )}
    </Screen>
  );
}
