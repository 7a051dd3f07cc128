import { type ReactNode, useEffect, useId, useState } from 'react';
import { languages } from '../i18n/languages.ts';
import { useShell } from './context.ts';
import { Link } from './Link.tsx';
import { consolePages } from './pages.ts';
import type { ConsoleSession } from './session.ts';
import { shellWords } from './shell-words.ts';

// Pages import Link from Link.tsx: from here, a page would import the registry that loads it (an import cycle).
export { Link };

/** The language menu, each language named in itself. */
export function LanguageMenu() {
  const { lang, setLang } = useShell();
  const id = useId();
  return (
    <div className="console-language">
      <label htmlFor={id}>{shellWords[lang].language}</label>
      <select id={id} value={lang} onChange={(event) => setLang(event.target.value as typeof lang)}>
        {languages.map((language) => (
          <option key={language.code} value={language.code} lang={language.code}>
            {language.name}
          </option>
        ))}
      </select>
    </div>
  );
}

/**
 * The signed-in console's frame: the company, the menu of the person's pages, the language and account menus. On a
 * phone the menu folds behind a button.
 */
export function Layout(props: {
  session: ConsoleSession;
  current: string | undefined;
  title: string | undefined;
  children: ReactNode;
}) {
  const { lang, api, refreshSession } = useShell();
  const words = shellWords[lang];
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const role = props.session.account.role;
  const pages = consolePages.filter((page) => page.title && page.roles.includes(role));
  const { current, title } = props;
  const company = props.session.company.name;

  useEffect(() => {
    document.title = title ? `${title} · ${company}` : company;
  }, [title, company]);

  const signOut = async () => {
    try {
      await api.send('POST', '/v1/account/sign-out');
    } finally {
      await refreshSession();
    }
  };

  return (
    <div className="console">
      <a className="skip-link" href="#content">
        {words.skip}
      </a>
      <header className="console-header">
        <span className="console-company">{company}</span>
        <button
          type="button"
          className="console-menu-button"
          aria-expanded={menuOpen}
          aria-controls={menuId}
          onClick={() => setMenuOpen(!menuOpen)}
        >
          {words.menu}
        </button>
      </header>
      <div className={`console-side${menuOpen ? ' open' : ''}`} id={menuId}>
        {/* A page chosen from the folded menu closes it. */}
        <nav aria-label={words.navigation} onClickCapture={() => setMenuOpen(false)}>
          <ul>
            {pages.map((page) => (
              <li key={page.id}>
                <Link to={page.path} current={page.id === current}>
                  {page.title?.[lang]}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <div className="console-account">
          <p>{words.signedInAs(props.session.account.name)}</p>
          <LanguageMenu />
          <button type="button" className="btn btn-small" onClick={() => void signOut()}>
            {words.signOut}
          </button>
        </div>
      </div>
      <main id="content" className="console-main" tabIndex={-1}>
        {title ? <h1>{title}</h1> : null}
        {props.children}
      </main>
    </div>
  );
}
