import { createContext, type ReactNode, useContext, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Lang, languages } from '../i18n/index.ts';

const Announce = createContext<(text: string) => void>(() => undefined);

/**
 * One polite live region for the whole kiosk, which each screen tells its heading and step: a screen reader hears
 * "Agreement – Step 5 of 5" when the step changes. It outlives the screens (a region mounted with its text is often
 * not read).
 */
export function Announcer({ children }: { children: ReactNode }) {
  const [text, setText] = useState('');
  return (
    <Announce.Provider value={setText}>
      {children}
      <p className="sr-only" aria-live="polite" aria-atomic="true">
        {text}
      </p>
    </Announce.Provider>
  );
}

const fieldTags = new Set(['INPUT', 'SELECT', 'TEXTAREA']);

/**
 * A screen of the kiosk: its heading, the way back and out (every screen has both: no dead ends), its content and
 * its main actions at the bottom, within reach of a thumb.
 */
export function Screen(props: {
  title: string;
  step?: { current: number; total: number } | undefined;
  onBack?: (() => void) | undefined;
  onCancel?: (() => void) | undefined;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation();
  const announce = useContext(Announce);
  const heading = useRef<HTMLHeadingElement>(null);
  const stepText = props.step ? t('common.step', props.step) : '';
  useEffect(() => {
    announce(stepText ? `${props.title} – ${stepText}` : props.title);
    // Focus moves with the step: to the field the step focused for typing, else to its heading, so the keyboard
    // starts at the top of the new step and not on the previous step's button or the page's body.
    const active = document.activeElement;
    if (!(active && fieldTags.has(active.tagName) && heading.current?.closest('main')?.contains(active))) {
      heading.current?.focus();
    }
  }, [announce, props.title, stepText]);
  return (
    <main className={`screen ${props.className ?? ''}`}>
      <header className="screen-header">
        {props.onBack ? (
          <button type="button" className="btn btn-quiet" onClick={props.onBack}>
            <span aria-hidden="true">←</span> {t('common.back')}
          </button>
        ) : (
          <span />
        )}
        <div className="screen-title">
          <h1 ref={heading} tabIndex={-1}>
            {props.title}
          </h1>
          {props.step && <p className="step">{t('common.step', props.step)}</p>}
        </div>
        {props.onCancel ? (
          <button type="button" className="btn btn-quiet" onClick={props.onCancel}>
            {t('common.startOver')}
          </button>
        ) : (
          <span />
        )}
      </header>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a body taller than the screen scrolls, by keyboard too */}
      <div className="screen-body" tabIndex={0}>
        {props.children}
      </div>
      {props.actions && <footer className="screen-actions">{props.actions}</footer>}
    </main>
  );
}

/** A labelled form control with its hint and its error, both announced to screen readers. */
export function Field(props: {
  label: string;
  optional?: boolean;
  error?: string | undefined;
  hint?: string | undefined;
  children: (control: { id: string; 'aria-invalid': boolean; 'aria-describedby': string | undefined }) => ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const described = [props.hint ? `${id}-hint` : '', props.error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <div className={`field${props.error ? ' field-invalid' : ''}`}>
      <label htmlFor={id}>
        {props.label}
        {props.optional && <span className="optional"> ({t('common.optional')})</span>}
      </label>
      {props.hint && (
        <p className="hint" id={`${id}-hint`}>
          {props.hint}
        </p>
      )}
      {props.children({ id, 'aria-invalid': Boolean(props.error), 'aria-describedby': described || undefined })}
      {props.error && (
        <p className="error" id={`${id}-error`}>
          {props.error}
        </p>
      )}
    </div>
  );
}

/** A message the screen reader reads when it appears: `alert` for problems, `status` for news. */
export function Notice({ kind, children }: { kind: 'error' | 'info' | 'success'; children: ReactNode }) {
  return (
    <p className={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </p>
  );
}

export function LanguageBar({ lang, onChange }: { lang: Lang; onChange: (lang: Lang) => void }) {
  const { t } = useTranslation();
  return (
    <nav className="language-bar" aria-label={t('common.language')}>
      {languages.map((language) => (
        <button
          key={language.code}
          type="button"
          lang={language.code}
          className="btn btn-language"
          aria-pressed={language.code === lang}
          onClick={() => onChange(language.code)}
        >
          {language.name}
        </button>
      ))}
    </nav>
  );
}

export function Spinner({ label }: { label: string }) {
  return (
    <div className="spinner-block" role="status">
      <span className="spinner" aria-hidden="true" />
      <span>{label}</span>
    </div>
  );
}
