import { brandContrast, minimumContrast } from '../../local-api/rules/contrast.ts';

/** A shade of `#rrggbb` mixed with black (`share` of black): the pressed look of the brand's buttons. */
export function darker(hex: string, share = 0.25): string {
  const channel = (at: number) =>
    Math.round(Number.parseInt(hex.slice(at, at + 2), 16) * (1 - share))
      .toString(16)
      .padStart(2, '0');
  return `#${channel(1)}${channel(3)}${channel(5)}`;
}

/**
 * Paints the kiosk in the company's brand colour, through the style sheet's own variables (set on the root by
 * the CSSOM, which the page's CSP allows, unlike style attributes); without a colour, or with one white text cannot
 * be read on (the service refuses those, but a page keeps its guard), the kiosk's own blue.
 */
export function applyBrand(color: string | null | undefined): void {
  const root = document.documentElement.style;
  if (color && brandContrast(color) >= minimumContrast) {
    root.setProperty('--primary', color);
    root.setProperty('--primary-dark', darker(color));
  } else {
    root.removeProperty('--primary');
    root.removeProperty('--primary-dark');
  }
}
