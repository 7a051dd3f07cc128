import type { WebContentsPrintOptions } from 'electron';
import type { PrinterSettings } from './settings.ts';

const micronsPerMm = 1000;

/**
 * How a badge is printed: silently (no dialog in front of the visitor), to the configured printer, on the
 * label's own page size with no margins. Label printers given a default page size (A4/Letter) and default
 * margins shrink or shift the badge, so both are always explicit.
 */
export function badgePrintOptions(printer: PrinterSettings, copies = 1): WebContentsPrintOptions {
  return {
    silent: true,
    printBackground: true,
    ...(printer.deviceName ? { deviceName: printer.deviceName } : {}),
    color: printer.color,
    landscape: printer.landscape,
    margins: { marginType: 'none' },
    pageSize: { width: printer.widthMm * micronsPerMm, height: printer.heightMm * micronsPerMm },
    copies,
  };
}
