import { useEffect, useState } from 'react';
import type { Api } from '../api.ts';
import { Badge } from '../components/Badge.tsx';
import type { KioskData } from '../kiosk-data.ts';
import type { KioskVisit } from '../types.ts';
import { receiptQuery } from './Outcome.tsx';

/**
 * `/badge/<visitId>?receipt=…` (the check-in's receipt): the badge alone, the page the Electron shell loads in a
 * hidden window and prints silently. `data-badge-ready` on <body> says when it is complete (the visit read and its
 * pictures loaded).
 */
export function BadgePage(props: { api: Api; data: KioskData; visitId: string; receipt: string; lang: string }) {
  const { api, data, visitId, receipt, lang } = props;
  const [visit, setVisit] = useState<KioskVisit>();
  useEffect(() => {
    document.body.classList.add('badge-page');
    api.get<KioskVisit>(`/v1/kiosk/visit/${visitId}${receiptQuery(receipt)}`).then(setVisit, () => {
      document.body.dataset.badgeReady = 'failed';
    });
  }, [api, visitId, receipt]);
  useEffect(() => {
    if (!visit) return;
    const images = Array.from(document.images);
    Promise.all(images.map((image) => image.decode().catch(() => undefined))).then(() => {
      document.body.dataset.badgeReady = 'true';
    });
  }, [visit]);
  if (!visit) return null;
  return <Badge data={data} visit={visit} picture={undefined} lang={lang} />;
}
