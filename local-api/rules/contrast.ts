/**
 * Colour contrast as WCAG 2.x defines it, for the company's brand colour: the kiosk writes white text on it (its
 * buttons, its welcome), so a colour is accepted only when that text keeps the AA contrast of normal text.
 */

/** A colour as `#rrggbb`. */
export const hexColorPattern = /^#[0-9a-fA-F]{6}$/;

/** WCAG AA for normal text (1.4.3): 4.5:1. */
export const minimumContrast = 4.5;

/** What the kiosk writes on the brand colour. */
export const textOnBrand = '#ffffff';

/** The relative luminance of an sRGB colour `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (at: number) => {
    const value = Number.parseInt(hex.slice(at, at + 2), 16) / 255;
    return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

/** The contrast ratio of two colours (1 to 21), rounded down to two decimals so 4.499 never passes as 4.5. */
export function contrastRatio(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return Math.floor(((light + 0.05) / (dark + 0.05)) * 100) / 100;
}

/** The contrast of the kiosk's text on a brand colour. */
export const brandContrast = (hex: string): number => contrastRatio(hex, textOnBrand);
