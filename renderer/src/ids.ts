import { uuidFromBytes } from '../../local-api/rules/ids.ts';

/**
 * A UUID v4 for a visit the kiosk creates: the id makes a repeated POST harmless. crypto.randomUUID exists only on
 * secure origins; getRandomValues everywhere, so the kiosk works when served over plain HTTP on a network too.
 */
export const uuidV4 = (): string => uuidFromBytes(crypto.getRandomValues(new Uint8Array(16)));
