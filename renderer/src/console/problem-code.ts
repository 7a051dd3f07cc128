import { ApiProblem, unreachable } from '../api.ts';

/** The error code a failed call answered (`{ "type": CODE }`), for a page to word; the service unreached otherwise. */
export const problemCode = (error: unknown): string => (error instanceof ApiProblem ? error.type : unreachable);
