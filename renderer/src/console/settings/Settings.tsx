import i18next from 'i18next';
import { type ReactNode, useCallback, useEffect, useId, useState } from 'react';
import { Notice, Spinner } from '../../components/ui.tsx';
import { initI18n, type Lang } from '../../i18n/index.ts';
import { type KioskData, loadKioskData } from '../../kiosk-data.ts';
import { problemText } from '../../problems.ts';
import { AccessSection } from '../../settings/AccessSection.tsx';
import { ApiKeysSection } from '../../settings/ApiKeysSection.tsx';
import { AuditLogSection } from '../../settings/AuditLogSection.tsx';
import { addAdminWords } from '../../settings/admin-words.ts';
import { BrandSection } from '../../settings/BrandEditor.tsx';
import { CompanySection } from '../../settings/CompanySection.tsx';
import { CustomFieldsSection } from '../../settings/CustomFieldsEditor.tsx';
import { KioskSection } from '../../settings/KioskSection.tsx';
import { NotificationsSection } from '../../settings/NotificationsSection.tsx';
import type { SettingsProps } from '../../settings/props.ts';
import { RetentionSection } from '../../settings/RetentionSection.tsx';
import { VisitorTypesPanel } from '../../settings/VisitorTypesPanel.tsx';
import SignInSettings from '../account/SignInSettings.tsx';
import { useConsole } from '../context.ts';
import { navigate, useLocation } from '../router.ts';
import { useWords } from '../words.ts';
import { settingsWords } from './words.ts';
import './settings.css';

/**
 * The kiosk's words, which the shared editors speak (renderer/src/settings/), with those of the editors only an
 * administrator sees, in the console's language: set up when this page's chunk first renders, so the console's first
 * load carries none of them. Checked at every render: another page may have set i18next up anew since.
 */
function speakKioskWords(lang: Lang): void {
  const kioskWords = i18next.isInitialized ? i18next : initI18n(lang);
  if (!kioskWords.hasResourceBundle('en', 'admin')) addAdminWords(kioskWords);
  // The editors follow the language (react-i18next re-renders them when it changes).
  if (kioskWords.language !== lang) void kioskWords.changeLanguage(lang);
}

type SectionId = keyof typeof sectionEditors;

/** The sections, in the page's order: each the product's one editor of its settings (docs/console.md, "Settings"). */
const sectionEditors = {
  company: (props: SettingsProps) => props.data.company && <CompanySection {...props} company={props.data.company} />,
  brand: (props: SettingsProps) => props.data.company && <BrandSection {...props} company={props.data.company} />,
  visitorTypes: (props: SettingsProps) => <VisitorTypesPanel {...props} />,
  kiosk: (props: SettingsProps) => <KioskSection {...props} />,
  customFields: (props: SettingsProps) => <CustomFieldsSection {...props} />,
  notifications: (props: SettingsProps) => <NotificationsSection {...props} />,
  access: (props: SettingsProps) => <AccessSection {...props} />,
  signIn: () => <SignInSettings />,
  retention: (props: SettingsProps) => <RetentionSection {...props} />,
  keys: (props: SettingsProps) => <ApiKeysSection {...props} />,
  audit: (props: SettingsProps) => <AuditLogSection {...props} />,
} satisfies Record<string, (props: SettingsProps) => ReactNode>;
const sectionIds = Object.keys(sectionEditors) as SectionId[];

/**
 * The console's Settings (ADMIN): a list of sections that opens one at a time (`?section=` in the address, so Back
 * closes it and a link opens one), each the product's one editor of its settings, most of them the front desk's too.
 * A saved setting loads the company's data again, and the session's company (the brand colour the console wears).
 */
export default function Settings() {
  const { api, lang, refreshSession } = useConsole();
  const words = useWords(settingsWords);
  const { search } = useLocation();
  const open = sectionIds.find((id) => id === search.get('section'));
  const id = useId();
  const [data, setData] = useState<KioskData>();
  const [problem, setProblem] = useState<string>();
  speakKioskWords(lang);

  const load = useCallback(
    () =>
      loadKioskData(api).then(
        (loaded) => {
          setData(loaded);
          setProblem(undefined);
        },
        (error) => setProblem(problemText(error)),
      ),
    [api],
  );
  useEffect(() => {
    void load();
  }, [load]);
  const onSettings = useCallback(() => {
    void load();
    void refreshSession();
  }, [load, refreshSession]);

  if (problem) return <Notice kind="error">{problem}</Notice>;
  if (!data) return <Spinner label={words.loading} />;
  const props: SettingsProps = { api, data, lang, onSettings };
  // The address keeps what else it says (`?lang=`).
  const toggle = (section: SectionId) => {
    const query = new URLSearchParams(search);
    if (section === open) query.delete('section');
    else query.set('section', section);
    navigate(query.size > 0 ? `/console/settings?${query.toString()}` : '/console/settings');
  };
  return (
    <div className="console-settings">
      <p className="hint">{words.intro}</p>
      <ul className="settings-sections">
        {sectionIds.map((section) => (
          <li key={section} className={section === open ? 'open' : undefined}>
            <h2 className="settings-heading">
              <button
                type="button"
                aria-expanded={section === open}
                aria-controls={`${id}-${section}`}
                onClick={() => toggle(section)}
              >
                <span id={`${id}-${section}-name`}>{words[section]}</span>
                <span className="settings-marker" aria-hidden="true">
                  {section === open ? '−' : '+'}
                </span>
              </button>
            </h2>
            <section
              id={`${id}-${section}`}
              className="settings-panel"
              aria-labelledby={`${id}-${section}-name`}
              hidden={section !== open}
            >
              {section === open && sectionEditors[section](props)}
            </section>
          </li>
        ))}
      </ul>
    </div>
  );
}
