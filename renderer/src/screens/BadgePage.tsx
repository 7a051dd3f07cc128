import { useEffect, useState } from 'react';
import type { Api } from '../api.ts';
import { Badge } from '../components/Badge.tsx';
import { type GateAnswer, gateCodeOnBadge } from '../components/GatePass.tsx';
import type { KioskData } from '../kiosk-data.ts';
import type { KioskVisit } from '../types.ts';
import { receiptQuery } from './Outcome.tsx';

/** QR codes are drawn a moment after the badge appears (QrImage): how long the page waits for them at most. */
const qrDrawnWithinMs = 2000;

/**
 * `/badge/<visitId>?receipt=…` (the check-in's receipt): the badge alone, the page the Electron shell loads in a
 * hidden window and prints silently. `data-badge-ready` on <body> says when it is complete (the visit read, its
 * gate code where the badge carries it, its QR codes drawn and its pictures loaded).
 */
export function BadgePage(props: { api: Api; data: KioskData; visitId: string; receipt: string; lang: string }) {
  const { api, data, visitId, receipt, lang } = props;
  const [visit, setVisit] = useState<KioskVisit>();
  // Wrapped: "no gate code" (refused, or not carried) is an answer too.
  const [gate, setGate] = useState<{ code: GateAnswer | undefined }>();
  useEffect(() => {
    document.body.classList.add('badge-page');
    api.get<KioskVisit>(`/v1/kiosk/visit/${visitId}${receiptQuery(receipt)}`).then(setVisit, () => {
      document.body.dataset.badgeReady = 'failed';
    });
  }, [api, visitId, receipt]);
  useEffect(() => {
    if (!visit) return;
    if (!gateCodeOnBadge(data, visit)) {
      setGate({ code: undefined });
      return;
    }
    api.optional<GateAnswer>(`/v1/kiosk/visit/${visitId}/qrcode${receiptQuery(receipt)}`).then(
      (code) => setGate({ code }),
      // A visit not let in has no gate code: its badge is printed without one.
      () => setGate({ code: undefined }),
    );
  }, [api, data, visit, visitId, receipt]);
  useEffect(() => {
    if (!visit || !gate) return;
    let current = true;
    const complete = async () => {
      const drawnBy = Date.now() + qrDrawnWithinMs;
      while (document.querySelector('span.badge-qr') && Date.now() < drawnBy) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      await Promise.all(Array.from(document.images).map((image) => image.decode().catch(() => undefined)));
      if (current) document.body.dataset.badgeReady = 'true';
    };
    void complete();
    return () => {
      current = false;
    };
  }, [visit, gate]);
  if (!visit || !gate) return null;
  return <Badge data={data} visit={visit} picture={undefined} lang={lang} gateCode={gate.code} />;
}
