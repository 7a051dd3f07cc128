import type { BrowserWindowConstructorOptions, WebPreferences } from 'electron';

/**
 * The web preferences of every window the app opens (the kiosk and the hidden badge printer). Most values are
 * Electron's defaults already; they are spelled out so a change of default, or of this file, shows in review
 * and in test/electron/window.test.ts.
 */
export function secureWebPreferences(preload?: string): WebPreferences {
  return {
    ...(preload ? { preload } : {}),
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    experimentalFeatures: false,
    webviewTag: false,
    navigateOnDragDrop: false,
    safeDialogs: true,
    spellcheck: false,
    // The kiosk is always in front: its timers and camera must not be slowed as if it were a background tab.
    backgroundThrottling: false,
  };
}

export interface KioskWindowInput {
  preload: string;
  /** Full-screen kiosk without a way out but the PIN; false for a normal window (development, the PIN exit). */
  kiosk: boolean;
  /** Developer tools; never in kiosk mode. */
  devTools: boolean;
}

/** The kiosk's one window: full screen, no menu bar, shown only once its page has painted. */
export function kioskWindowOptions(input: KioskWindowInput): BrowserWindowConstructorOptions {
  return {
    width: 1280,
    height: 800,
    minWidth: 800,
    minHeight: 600,
    show: false,
    backgroundColor: '#ffffff',
    title: 'Portaria',
    kiosk: input.kiosk,
    fullscreen: input.kiosk,
    fullscreenable: true,
    autoHideMenuBar: true,
    webPreferences: { ...secureWebPreferences(input.preload), devTools: input.devTools && !input.kiosk },
  };
}

/**
 * The hidden window a badge page is loaded into and printed from. It is a page of the app like the kiosk's, so
 * it gets the same bridge (it needs the credential to read the visit it prints) and the same guards.
 */
export function badgeWindowOptions(preload: string): BrowserWindowConstructorOptions {
  return {
    show: false,
    width: 400,
    height: 600,
    webPreferences: { ...secureWebPreferences(preload), devTools: false },
  };
}
