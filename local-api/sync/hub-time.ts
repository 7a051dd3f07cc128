import type { Clock } from '../context.ts';

/**
 * A measured offset within this of the one in use is measurement noise (the measure is off by up to half a round
 * trip to the hub): keeping the one in use spares the service's time a jitter of milliseconds back and forth.
 */
export const offsetNoiseMs = 1_000;

/** A device clock further than this from its hub's is shown to the front desk as a warning. */
export const clockWarningMs = 30_000;

export const clockIsOff = (offsetMs: number | null): boolean =>
  offsetMs !== null && Math.abs(offsetMs) > clockWarningMs;

/**
 * The service's time on a kiosk: the device's clock set by its hub's. The kiosk measures at every pull how far the
 * hub's clock is from the device's and tells time as the hub does, so its visits, its QR codes and its check-out
 * checks agree with the hub, its sibling kiosks and the gates whatever the device's clock says. A hub, or a kiosk
 * that has never reached its hub, tells the device's time.
 */
export class HubTime implements Clock {
  #offsetMs = 0;

  constructor(readonly device: Clock) {}

  now(): number {
    return this.device.now() + this.#offsetMs;
  }

  /** The hub's clock minus the device's, as in use. */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Takes a measured offset unless it is within noise of the one in use; answers whether it did. */
  adopt(offsetMs: number): boolean {
    if (Math.abs(offsetMs - this.#offsetMs) <= offsetNoiseMs) return false;
    this.#offsetMs = offsetMs;
    return true;
  }
}

export const hubTimeOf = (clock: Clock): HubTime | undefined => (clock instanceof HubTime ? clock : undefined);
