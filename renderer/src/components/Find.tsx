import { useTranslation } from 'react-i18next';
import { Scanner } from './Scanner.tsx';
import { Field, Notice, Screen, Spinner } from './ui.tsx';

export interface Found {
  id: string;
  name: string | null;
  detail: string;
}

/**
 * Finding oneself, two ways side by side: a QR code held up to the camera, or a search that shows matches only
 * once enough is typed. Used by invited guests and by check-out.
 */
export function FindScreen(props: {
  title: string;
  scanTitle: string;
  searchLabel: string;
  searchHint: string;
  query: string;
  onQuery: (query: string) => void;
  /** A button that sends what was typed as it is (an invitation code); none when undefined. */
  submitLabel?: string | undefined;
  onSubmit?: () => void;
  results: Found[];
  onPick: (id: string) => void;
  onScan: (text: string) => void;
  message: string | undefined;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Screen title={props.title} onBack={props.onCancel} onCancel={props.onCancel}>
      <div className="find">
        <section className="find-scan">
          <h2>{props.scanTitle}</h2>
          <Scanner onCode={props.onScan} paused={false} />
        </section>
        <p className="find-or">{t('invited.or')}</p>
        <section className="find-search">
          <form
            onSubmit={(e) => {
              e.preventDefault();
              props.onSubmit?.();
            }}
          >
            <Field label={props.searchLabel} hint={props.searchHint}>
              {(control) => (
                <input
                  {...control}
                  autoComplete="off"
                  spellCheck={false}
                  maxLength={200}
                  value={props.query}
                  onChange={(e) => props.onQuery(e.target.value)}
                />
              )}
            </Field>
            {props.submitLabel && (
              <button type="submit" className="btn btn-primary">
                {props.submitLabel}
              </button>
            )}
          </form>
          <ul className="result-list">
            {props.results.map((found) => (
              <li key={found.id}>
                <button type="button" className="btn btn-result" onClick={() => props.onPick(found.id)}>
                  <span className="result-name">{found.name}</span>
                  <span className="result-detail">{found.detail}</span>
                </button>
              </li>
            ))}
          </ul>
        </section>
      </div>
      {props.message && <Notice kind="error">{props.message}</Notice>}
    </Screen>
  );
}

/** "Is this you?": the person found, and the one action the screen is for. */
export function ConfirmScreen(props: {
  title: string;
  name: string | null;
  lines: (string | null | undefined | false)[];
  confirmLabel: string;
  sending: boolean;
  message: string | undefined;
  onConfirm: () => void;
  onBack: () => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Screen
      title={props.title}
      onBack={props.onBack}
      onCancel={props.onCancel}
      actions={
        props.sending ? (
          <Spinner label={t('common.loading')} />
        ) : (
          <>
            <button type="button" className="btn btn-secondary" onClick={props.onBack}>
              {t('invited.notMe')}
            </button>
            <button type="button" className="btn btn-primary btn-main" onClick={props.onConfirm}>
              {props.confirmLabel}
            </button>
          </>
        )
      }
    >
      <div className="confirm-card">
        <p className="confirm-name">{props.name}</p>
        {props.lines.filter(Boolean).map((line) => (
          <p key={String(line)}>{line}</p>
        ))}
      </div>
      {props.message && <Notice kind="error">{props.message}</Notice>}
    </Screen>
  );
}
