#!/usr/bin/env node
// The command line runs the TypeScript sources directly through tsx: one codebase, no build step to forget.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
await main(process.argv.slice(2));
