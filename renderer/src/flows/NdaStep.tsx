import { type ComponentProps, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type SignaturePad from 'signature_pad';
import { Notice, Screen, Spinner } from '../components/ui.tsx';
import { problemText } from '../problems.ts';
import { dateAndTime } from '../time.ts';

/**
 * The company's agreement, shown to read, signed with a finger on a signature pad; the signed PDF (agreement,
 * signature, name, date) is made here in the page and handed on as Base64.
 */
export function NdaStep(props: {
  frame: Omit<ComponentProps<typeof Screen>, 'children' | 'actions'>;
  text: string;
  signerName: string;
  lang: string;
  timeZone: string;
  onSigned: (pdfBase64: string) => void;
}) {
  const { t } = useTranslation();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const padRef = useRef<SignaturePad | null>(null);
  const [problem, setProblem] = useState<string>();
  const [making, setMaking] = useState(false);

  useEffect(() => {
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
    };
  }, []);

  const sign = async () => {
    const pad = padRef.current;
    if (!pad || pad.isEmpty()) {
      setProblem(t('nda.needSignature'));
      return;
    }
    setMaking(true);
    try {
      const { signedNdaPdf } = await import('../nda-pdf.ts');
      const signedAt = new Date();
      const pdf = await signedNdaPdf({
        title: t('nda.title'),
        text: props.text,
        signaturePng: pad.toDataURL('image/png'),
        signerName: props.signerName,
        signedAt,
        signedAtText: dateAndTime(props.lang, props.timeZone, signedAt),
        labels: { signedBy: t('nda.signedBy'), signedAt: t('nda.signedAt') },
      });
      props.onSigned(pdf);
    } catch (error) {
      setMaking(false);
      setProblem(problemText(error));
    }
  };

  const actions = making ? (
    <Spinner label={t('nda.making')} />
  ) : (
    <>
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
      <p className="signature-caption" aria-hidden="true">
        {t('nda.signHere')}
      </p>
      <canvas ref={canvasRef} className="signature-pad" role="img" aria-label={t('nda.signature')} />
      {problem && <Notice kind="error">{problem}</Notice>}
    </Screen>
  );
}
