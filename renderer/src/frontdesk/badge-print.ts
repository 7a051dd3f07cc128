import type { Visit } from '../types.ts';

export type BadgePrintOutcome = 'printed' | 'failed';

/**
 * Prints a visit's badge again. In the Electron shell the badge page goes silently to the label printer; in a
 * browser the page prints itself, and the print stylesheet shows only the badge, which the caller has rendered
 * (hidden on screen) in `holder`: its pictures and QR code are waited for first.
 */
export async function reprintBadge(visit: Visit, holder: HTMLElement | null): Promise<BadgePrintOutcome> {
  if (window.portaria) {
    const result = await window.portaria.printBadge({ path: `/badge/${visit.id}` }).catch(() => ({ printed: false }));
    return result.printed ? 'printed' : 'failed';
  }
  if (!holder) return 'failed';
  // The check-out QR code is drawn a moment after the badge appears.
  for (let tries = 0; tries < 20 && !holder.querySelector('img.badge-qr, .badge-qr img, canvas'); tries++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await Promise.all(Array.from(holder.querySelectorAll('img')).map((image) => image.decode().catch(() => undefined)));
  window.print();
  return 'printed';
}
