import { type ComponentProps, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type SignaturePad from 'signature_pad';
import { Field, Notice, Screen, Spinner } from '../components/ui.tsx';
import type { NdaSignature } from '../nda-pdf.ts';
import { problemText } from '../problems.ts';
import { dateAndTime } from '../time.ts';

/** The signed agreement and how it was signed, as the service records it (`visitNda`, `ndaSignature`). */
export interface SignedAgreement {
  pdf: string;
  signature: 'DRAWN' | 'TYPED';
}

/** A typed name signs when it is the signer's name, give or take case and spaces. */
function typedNameSigns(typed: string, signerName: string): boolean {
  const plain = (name: string) => name.trim().replace(/\s+/g, ' ').toLocaleLowerCase();
  return plain(typed) !== '' && (signerName.trim() === '' || plain(typed) === plain(signerName));
}

/**
 * The company's agreement, shown to read, signed with a finger on a signature pad, or, for a visitor without a
 * pointer (a keyboard, a switch, a screen reader), by typing their full name; the signed PDF (agreement, signature
 * or typed name, name, date) is made here in the page and handed on as Base64 with how it was signed.
 */
export function NdaStep(props: {
  frame: Omit<ComponentProps<typeof Screen>, 'children' | 'actions'>;
  text: string;
  signerName: string;
  lang: string;
  timeZone: string;
  onSigned: (signed: SignedAgreement) => void;
}) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const typedRef = useRef<HTMLInputElement>(null);
  const [problem, setProblem] = useState<string>();
  const [making, setMaking] = useState(false);
  const [typing, setTyping] = useState(false);
  const [typed, setTyped] = useState('');

  useEffect(() => {
    if (typing) typedRef.current?.focus();
  }, [typing]);

  useEffect(() => {
    if (typing) return;
    let pad: SignaturePad | undefined;
    let gone = false;
    const canvas = canvasRef.current;
    // The pad draws in device pixels: size the canvas to its box times the screen's pixel ratio.
    const fit = () => {
      if (!canvas) return;
      const ratio = Math.max(window.devicePixelRatio || 1, 1);
      canvas.width = canvas.offsetWidth * ratio;
      canvas.height = canvas.offsetHeight * ratio;
      canvas.getContext('2d')?.scale(ratio, ratio);
      pad?.clear();
    };
    import('signature_pad').then(({ default: Pad }) => {
      if (gone || !canvas) return;
      fit();
      pad = new Pad(canvas, { minWidth: 1, maxWidth: 3, penColor: '#0b1f44', backgroundColor: 'rgba(0,0,0,0)' });
      pad.addEventListener('beginStroke', () => setProblem(undefined));
      padRef.current = pad;
    });
    window.addEventListener('resize', fit);
    return () => {
      gone = true;
      window.removeEventListener('resize', fit);
      pad?.off();
      padRef.current = null;
    };
  }, [typing]);

  const typedProblem = (value: string) =>
    typedNameSigns(value, props.signerName)
      ? undefined
      : props.signerName.trim()
        ? t('nda.typeYourName', { name: props.signerName.trim() })
        : t('validation.required');

  /** The signature as made so far, or undefined after saying what is missing. */
  const signature = (): NdaSignature | undefined => {
    if (typing) {
      const found = typedProblem(typed);
      setProblem(found);
      if (found) typedRef.current?.focus();
      return found ? undefined : { kind: 'typed', name: typed.trim().replace(/\s+/g, ' ') };
    }
    const pad = padRef.current;
    if (!pad || pad.isEmpty()) {
      setProblem(t('nda.needSignature'));
      return undefined;
    }
    return { kind: 'drawn', png: pad.toDataURL('image/png') };
  };

  const sign = async () => {
    const made = signature();
    if (!made) return;
    setMaking(true);
    try {
      const { signedNdaPdf } = await import('../nda-pdf.ts');
      const signedAt = new Date();
      const pdf = await signedNdaPdf({
        title: t('nda.title'),
        text: props.text,
        signature: made,
        signerName: props.signerName,
        signedAt,
        signedAtText: dateAndTime(props.lang, props.timeZone, signedAt),
        labels: { signedBy: t('nda.signedBy'), signedAt: t('nda.signedAt'), typedSignature: t('nda.typedSignature') },
      });
      props.onSigned({ pdf, signature: made.kind === 'typed' ? 'TYPED' : 'DRAWN' });
    } catch (error) {
      setMaking(false);
      setProblem(problemText(error));
    }
  };

  const actions = making ? (
    <Spinner label={t('nda.making')} />
  ) : (
    <>
      {!typing && (
        <button
          type="button"
          className="btn btn-secondary"
          onClick={() => {
            padRef.current?.clear();
            setProblem(undefined);
          }}
        >
          {t('nda.clear')}
        </button>
      )}
      <button type="button" className="btn btn-primary btn-main" onClick={sign}>
        {t('nda.agree')}
      </button>
    </>
  );
  return (
    <Screen {...props.frame} className="nda-step" actions={actions}>
      <p className="lead">{t('nda.intro')}</p>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: the agreement scrolls, and keyboard users scroll it */}
      <section className="nda-text" tabIndex={0} aria-label={t('nda.document')}>
        {props.text.split(/\r?\n/).map((line, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines of a fixed text, never reordered
          <p key={i}>{line}</p>
        ))}
      </section>
      {typing ? (
        <div className="typed-signature">
          <Field label={t('nda.typeLabel')} error={problem}>
            {(control) => (
              <input
                {...control}
                ref={typedRef}
                className="typed-signature-input"
                autoComplete="off"
                autoCapitalize="words"
                spellCheck={false}
                maxLength={200}
                value={typed}
                onChange={(e) => {
                  setTyped(e.target.value);
                  // An error goes as soon as the name is right: it is not kept until the next tap.
                  if (problem) setProblem(typedProblem(e.target.value));
                }}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') void sign();
                }}
              />
            )}
          </Field>
        </div>
      ) : (
        <>
          <p className="signature-caption" aria-hidden="true">
            {t('nda.signHere')}
          </p>
          <canvas ref={canvasRef} className="signature-pad" role="img" aria-label={t('nda.signature')} />
          {problem && <Notice kind="error">{problem}</Notice>}
        </>
      )}
      <button
        type="button"
        className="btn btn-quiet signature-switch"
        onClick={() => {
          setTyping(!typing);
          setProblem(undefined);
        }}
      >
        {typing ? t('nda.drawInstead') : t('nda.typeInstead')}
      </button>
    </Screen>
  );
}
