import type { Messages } from './en.ts';
import { en } from './en.ts';

export const ptBR: Messages = en;
