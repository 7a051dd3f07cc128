import type { SyncStatus } from '../hub.ts';
import type { SettingsProps } from '../settings/props.ts';

/**
 * What the front desk hands each of its panels: what the settings editors take, and the desk's own. In a module of
 * its own, so the desk and its panels both import it and neither imports the other.
 */
export interface FrontDeskProps extends SettingsProps {
  sync: SyncStatus | undefined;
  onClose: () => void;
}
