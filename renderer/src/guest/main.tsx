import '../styles.css';
import './guest.css';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import type { RegistrationForm } from '../../../local-api/registration/schema.ts';
import { applyBrand } from '../brand.ts';
import { Announcer } from '../components/ui.tsx';
import { initI18n, kioskLanguage } from '../i18n/index.ts';
import { Registration } from './Registration.tsx';
import { GuestProblem, guestRequest } from './request.ts';
import { guestWords } from './words.ts';

/*
 * The register page (docs/kiosk.md, "Pre-registration"): opened from the invitation's link, at
 * `<public address>/p/register/<token>`. Its endpoints are under its own address, so it works behind a prefix too.
 */
const base = location.pathname.replace(/\/+$/, '');
const asked = new URLSearchParams(location.search).get('lang');
const i18n = initI18n(kioskLanguage(asked ?? navigator.language));

function Boot() {
  const [form, setForm] = useState<RegistrationForm>();
  const [problem, setProblem] = useState<GuestProblem>();
  useEffect(() => {
    guestRequest<RegistrationForm>('GET', `${base}/form${asked ? `?lang=${encodeURIComponent(asked)}` : ''}`)
      .then(async (loaded) => {
        await i18n.changeLanguage(loaded.lang);
        document.documentElement.lang = loaded.lang;
        document.title = `${guestWords(loaded.lang).title} · ${loaded.company.name}`;
        applyBrand(loaded.company.brandColor);
        setForm(loaded);
      })
      .catch((error: unknown) => setProblem(error instanceof GuestProblem ? error : new GuestProblem('UNKNOWN', 0)));
  }, []);
  const words = guestWords(kioskLanguage(i18n.language));
  if (!form) {
    return (
      <main className="screen boot">
        <p role={problem ? 'alert' : 'status'}>{problem ? problem.text(words) : words.loading}</p>
      </main>
    );
  }
  return <Registration form={form} base={base} />;
}

const root = document.getElementById('root');
if (root) {
  root.className = 'kiosk guest';
  createRoot(root).render(
    <StrictMode>
      <Announcer>
        <Boot />
      </Announcer>
    </StrictMode>,
  );
}
