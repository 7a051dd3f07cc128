import './styles.css';
import { StrictMode, useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.tsx';
import { type Api, ApiProblem, createApi } from './api.ts';
import { connect } from './connection.ts';
import { initI18n, kioskLanguage } from './i18n/index.ts';
import { type KioskData, loadKioskData } from './kiosk-data.ts';
import { problemText } from './problems.ts';
import { setReached } from './reach.ts';
import { BadgePage } from './screens/BadgePage.tsx';

const i18n = initI18n(kioskLanguage(navigator.language));
const badgePath = /^\/badge\/([0-9a-f-]{36})$/i.exec(location.pathname);

/** Retries start-up every few seconds: a kiosk switched on before its service comes up by itself. */
const retryMs = 3000;

function Boot() {
  const [ready, setReady] = useState<{ api: Api; data: KioskData }>();
  const [failed, setFailed] = useState<unknown>();
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const start = async () => {
      try {
        const { apiKey } = await connect();
        const api = createApi(apiKey, setReached);
        const data = await loadKioskData(api);
        await i18n.changeLanguage(kioskLanguage(data.company?.lang));
        setReady({ api, data });
      } catch (error) {
        setFailed(error ?? new Error('start-up failed'));
        timer = setTimeout(start, retryMs);
      }
    };
    void start();
    return () => clearTimeout(timer);
  }, []);
  if (!ready) {
    // A service with no company yet (between `serve` and `company create`) is not a failure: it needs setting up.
    if (failed instanceof ApiProblem && failed.type === 'NOT_ENROLLED') {
      const code = failed.extra.pairingCode;
      return typeof code === 'string' ? <Pairing code={code} /> : <NotSetUp />;
    }
    return (
      <main className="screen boot">
        <p role={failed ? 'alert' : 'status'}>{failed ? problemText(failed) : i18n.t('status.starting')}</p>
      </main>
    );
  }
  if (badgePath?.[1]) {
    return (
      <BadgePage
        api={ready.api}
        data={ready.data}
        visitId={badgePath[1]}
        receipt={new URLSearchParams(location.search).get('receipt') ?? ''}
        lang={kioskLanguage(ready.data.company?.lang)}
      />
    );
  }
  return <App api={ready.api} initial={ready.data} />;
}

/** What the kiosk's screen says until a company is created for it, and how to create one; it goes on by itself. */
function NotSetUp() {
  return (
    <main className="screen boot not-set-up">
      <h1>{i18n.t('status.notSetUpTitle')}</h1>
      <p>{i18n.t('status.notSetUp')}</p>
      <pre>
        <code>npx portaria company create --data &lt;data folder&gt; --name "&lt;company&gt;"</code>
      </pre>
      <p role="status">{i18n.t('status.notSetUpWaiting')}</p>
    </main>
  );
}

/** A kiosk pairing with its hub: the code an administrator types into the console's Kiosks page (docs/sync.md). */
function Pairing({ code }: { code: string }) {
  return (
    <main className="screen boot not-set-up">
      <h1>{i18n.t('status.pairingTitle')}</h1>
      <p>{i18n.t('status.pairing')}</p>
      <p>{i18n.t('status.pairingCode')}</p>
      <p className="pairing-code">{code}</p>
      <p role="status">{i18n.t('status.notSetUpWaiting')}</p>
    </main>
  );
}

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <Boot />
    </StrictMode>,
  );
}
