import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Notice, Screen } from '../components/ui.tsx';
import { problemText } from '../problems.ts';

interface Props {
  onHome: () => void;
  children: ReactNode;
}

/**
 * Catches what a screen could not draw (a part that failed to load while the service was down, an unforeseen
 * error) and offers the way back to the start instead of a blank kiosk. Keyed by the visitor's session, so going
 * home starts clean.
 */
export class ScreenFailure extends Component<Props, { error: unknown }> {
  override state = { error: undefined as unknown };

  static getDerivedStateFromError(error: unknown) {
    return { error };
  }

  override render() {
    if (this.state.error === undefined) return this.props.children;
    return <FailureScreen error={this.state.error} onHome={this.props.onHome} />;
  }
}

function FailureScreen({ error, onHome }: { error: unknown; onHome: () => void }) {
  const { t } = useTranslation();
  return (
    <Screen
      title={t('common.sorry')}
      onCancel={onHome}
      actions={
        <button type="button" className="btn btn-primary" onClick={onHome}>
          {t('common.startOver')}
        </button>
      }
    >
      <Notice kind="error">{problemText(error)}</Notice>
    </Screen>
  );
}
