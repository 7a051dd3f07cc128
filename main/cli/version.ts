import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../build/paths.ts';

/** Portaria's version, as its package.json says (read only when asked). */
export function version(root = repoRoot): string {
  return (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }).version;
}
