import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageBar } from '../components/ui.tsx';
import type { Lang } from '../i18n/index.ts';
import type { Company } from '../types.ts';

export function Welcome(props: {
  company: Company | undefined;
  lang: Lang;
  onLang: (lang: Lang) => void;
  onWalkIn: () => void;
  onInvited: () => void;
  onCheckout: () => void;
  onFrontDesk: () => void;
}) {
  const { t } = useTranslation();
  // A logo the page cannot show (another origin, which the CSP refuses, or a broken link) gives way to the name.
  const [logoFailed, setLogoFailed] = useState(false);
  const logo = props.company?.pictureUrl && !logoFailed ? props.company.pictureUrl : undefined;
  return (
    <main className="screen welcome">
      <header className="welcome-header">
        {logo ? (
          <img className="logo" src={logo} alt={props.company?.name ?? ''} onError={() => setLogoFailed(true)} />
        ) : (
          <span className="company-name">{props.company?.name}</span>
        )}
        <button type="button" className="btn btn-quiet front-desk-button" onClick={props.onFrontDesk}>
          {t('welcome.frontDesk')}
        </button>
      </header>
      <div className="welcome-body">
        <h1>{props.company?.name ? t('welcome.to', { company: props.company.name }) : t('welcome.title')}</h1>
        <div className="welcome-actions">
          <button type="button" className="btn btn-primary btn-choice" onClick={props.onWalkIn}>
            <span className="choice-title">{t('welcome.walkIn')}</span>
            <span className="choice-hint">{t('welcome.walkInHint')}</span>
          </button>
          <button type="button" className="btn btn-secondary btn-choice" onClick={props.onInvited}>
            <span className="choice-title">{t('welcome.invited')}</span>
            <span className="choice-hint">{t('welcome.invitedHint')}</span>
          </button>
          <button type="button" className="btn btn-secondary btn-choice" onClick={props.onCheckout}>
            <span className="choice-title">{t('welcome.checkout')}</span>
            <span className="choice-hint">{t('welcome.checkoutHint')}</span>
          </button>
        </div>
      </div>
      <footer className="welcome-footer">
        <LanguageBar lang={props.lang} onChange={props.onLang} />
      </footer>
    </main>
  );
}
