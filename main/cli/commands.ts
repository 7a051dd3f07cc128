/** The commands of `portaria`, in the order `portaria --help` lists them. A new command: its module, then a line here. */
import { accountLink } from './account.ts';
import { backup, restore } from './backup.ts';
import type { Command } from './command.ts';
import { companyCreate } from './company.ts';
import { gate } from './gate.ts';
import { keysCreate, keysList, keysRevoke } from './keys.ts';
import { kioskEnrol } from './kiosk.ts';
import { ownerRevoke, ownerToken, ownerTokensList } from './owner.ts';
import { privacyExport } from './privacy.ts';
import { serve } from './serve.ts';
import { start } from './start.ts';

export const commands: readonly Command[] = [
  start,
  serve,
  companyCreate,
  kioskEnrol,
  keysCreate,
  keysList,
  keysRevoke,
  accountLink,
  ownerToken,
  ownerTokensList,
  ownerRevoke,
  privacyExport,
  backup,
  restore,
  gate,
];
