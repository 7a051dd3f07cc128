import { type Ref, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useTranslation } from 'react-i18next';
import type { Api } from '../api.ts';
import { Badge } from '../components/Badge.tsx';
import { type GateAnswer, gateCodeOnBadge } from '../components/GatePass.tsx';
import type { KioskData } from '../kiosk-data.ts';
import { Refusal } from '../problems.ts';
import type { Visit } from '../types.ts';

export type BadgePrintOutcome = 'printed' | 'failed';

/**
 * Prints a visit's badge again. In the Electron shell the badge page goes silently to the label printer; in a
 * browser the page prints itself, and the print stylesheet shows only the badge, which the caller has rendered
 * (hidden on screen) in `holder`: its pictures and QR code are waited for first.
 */
async function reprintBadge(visit: Visit, holder: HTMLElement | null): Promise<BadgePrintOutcome> {
  if (window.portaria) {
    const result = await window.portaria.printBadge({ path: `/badge/${visit.id}` }).catch(() => ({ printed: false }));
    return result.printed ? 'printed' : 'failed';
  }
  if (!holder) return 'failed';
  // The QR codes are drawn a moment after the badge appears.
  for (
    let tries = 0;
    tries < 20 && (holder.querySelector('span.badge-qr') || !holder.querySelector('img.badge-qr'));
    tries++
  ) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await Promise.all(Array.from(holder.querySelectorAll('img')).map((image) => image.decode().catch(() => undefined)));
  window.print();
  return 'printed';
}

/** The badge to print from the desk, rendered for the printer only (hidden on screen by the desk's stylesheet). */
function BadgeForPrint(props: {
  visit: Visit;
  gateCode: GateAnswer | undefined;
  data: KioskData;
  lang: string;
  holder: Ref<HTMLDivElement>;
}) {
  const { visit, data, lang } = props;
  return (
    <div className="reprint" ref={props.holder}>
      <Badge
        visit={{ ...visit, hostName: visit.host?.name ?? null }}
        data={data}
        picture={undefined}
        lang={lang}
        gateCode={props.gateCode}
      />
    </div>
  );
}

/**
 * Printing a visit's badge from the desk: `print(visit)` is work for `useAction().run` (it answers the sentence to
 * show), and `badge` is the element to render in the panel while it prints.
 */
export function useBadgePrinter(api: Api, data: KioskData, lang: string) {
  const { t } = useTranslation();
  const [printing, setPrinting] = useState<{ visit: Visit; gateCode: GateAnswer | undefined }>();
  const holder = useRef<HTMLDivElement>(null);
  const print = (target: Visit) => async () => {
    // Where the gate code cannot reach the visitor's phone, the badge carries it (none for a visit not let in).
    const gateCode = gateCodeOnBadge(data)
      ? await api.optional<GateAnswer>(`/v1/visit/${target.id}/qrcode`).catch(() => undefined)
      : undefined;
    // The badge is rendered (hidden on screen) before the page prints it.
    flushSync(() => setPrinting({ visit: target, gateCode }));
    try {
      if ((await reprintBadge(target, holder.current)) === 'failed') throw new Refusal(t('outcome.printFailed'));
    } finally {
      setPrinting(undefined);
    }
    return t('visitLog.reprinted', { name: target.name ?? '' });
  };
  const badge = printing ? <BadgeForPrint {...printing} data={data} lang={lang} holder={holder} /> : null;
  return { print, badge };
}
