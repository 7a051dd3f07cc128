import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { inLanguage } from '../../../local-api/visitor-types/rules.ts';
import { LanguageBar } from '../components/ui.tsx';
import type { Lang } from '../i18n/index.ts';
import type { Company, VisitorType } from '../types.ts';

/**
 * The start: the company, the ways in and out, and the languages. A company with several visitor types offers
 * one large choice per type (the visitor says what brings them with the first tap); with one type or none, a
 * single "I'm visiting".
 */
export function Welcome(props: {
  company: Company | undefined;
  lang: Lang;
  visitorTypes: readonly VisitorType[];
  onLang: (lang: Lang) => void;
  onWalkIn: (visitorType: VisitorType | undefined) => void;
  onInvited: () => void;
  onCheckout: () => void;
  onFrontDesk: () => void;
}) {
  const { t } = useTranslation();
  // A logo the page cannot show (another origin, which the CSP refuses, or a broken link) gives way to the name.
  const [logoFailed, setLogoFailed] = useState(false);
  const logo = props.company?.pictureUrl && !logoFailed ? props.company.pictureUrl : undefined;
  const [imageFailed, setImageFailed] = useState(false);
  const image = props.company?.welcomeImageUrl && !imageFailed ? props.company.welcomeImageUrl : undefined;
  // The company's own words in the visitor's language; a language without them says nothing more than the heading.
  const message = props.company?.localizedWelcomeMessage?.[props.lang];
  const choosing = props.visitorTypes.length > 1;
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
      <div className={`welcome-body${image ? ' welcome-with-image' : ''}`}>
        {image && <img className="welcome-image" src={image} alt="" onError={() => setImageFailed(true)} />}
        <h1>{props.company?.name ? t('welcome.to', { company: props.company.name }) : t('welcome.title')}</h1>
        {message && <p className="welcome-message">{message}</p>}
        <div className="welcome-actions">
          {choosing ? (
            <section className="visitor-types" aria-labelledby="visitor-types-title">
              <h2 id="visitor-types-title">{t('welcome.chooseType')}</h2>
              <div className="visitor-type-list">
                {props.visitorTypes.map((type) => (
                  <button
                    key={type.id}
                    type="button"
                    className="btn btn-primary btn-choice btn-type"
                    onClick={() => props.onWalkIn(type)}
                  >
                    <span className="choice-title">{inLanguage(type.localizedName, props.lang, type.name)}</span>
                  </button>
                ))}
              </div>
            </section>
          ) : (
            <button
              type="button"
              className="btn btn-primary btn-choice"
              onClick={() => props.onWalkIn(props.visitorTypes[0])}
            >
              <span className="choice-title">{t('welcome.walkIn')}</span>
              <span className="choice-hint">{t('welcome.walkInHint')}</span>
            </button>
          )}
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
