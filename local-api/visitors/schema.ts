import { z } from 'zod';
import { visitorObjectShape } from './contract.ts';

/** A visitor: who came, with the data of their latest visit, and how often they came. */
export const visitorObjectSchema = z.object(visitorObjectShape);
