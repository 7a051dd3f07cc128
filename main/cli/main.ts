import { type Command, CommandFailure, commandHelp, parseOptions, UsageError } from './command.ts';
import { commands } from './commands.ts';
import { version } from './version.ts';

const helpWords = new Set(['--help', '-h', 'help']);
const versionWords = new Set(['--version', '-v', 'version']);

export function overview(table: readonly Command[] = commands): string {
  const width = Math.max(...table.map((entry) => entry.name.length)) + 2;
  return [
    'Usage: portaria <command> [options]',
    '',
    'Commands:',
    ...table.map((entry) => `  ${entry.name.padEnd(width)}${entry.summary}`),
    '',
    'portaria <command> --help shows its options. --debug adds the stack trace to an error. --version: the version.',
    'Exit codes: 0 done; 1 the machine refused (a port in use, a folder in use or not writable); 2 a wrong command line.',
    '',
  ].join('\n');
}

/** The command that `words` start with (two-word names first), and the words after its name. */
function findCommand(words: string[], table: readonly Command[]): { found: Command; rest: string[] } | undefined {
  for (const entry of table) {
    const name = entry.name.split(' ');
    if (name.every((word, i) => words[i] === word)) return { found: entry, rest: words.slice(name.length) };
  }
  return undefined;
}

function unknownCommand(words: string[], table: readonly Command[]): UsageError {
  const [first = ''] = words;
  const group = table.filter((entry) => entry.name.startsWith(`${first} `)).map((entry) => entry.name);
  if (group.length > 0) {
    return new UsageError(`${first} needs one of: ${group.join(', ')} (see portaria --help)`);
  }
  return new UsageError(`unknown command "${first}": see portaria --help for the commands`);
}

/** Runs the command line; resolves once the command has started (a service keeps running after). */
export async function run(argv: string[], table: readonly Command[] = commands): Promise<void> {
  const words = argv.filter((word) => word !== '--debug');
  if (words.length === 0) throw new UsageError('no command given: see portaria --help for the commands');
  const [first = ''] = words;
  if (versionWords.has(first) && words.length === 1) {
    process.stdout.write(`portaria ${version()}\n`);
    return;
  }
  if (helpWords.has(first)) {
    const about = words.length > 1 ? findCommand(words.slice(1), table) : undefined;
    if (words.length > 1 && !about) throw unknownCommand(words.slice(1), table);
    process.stdout.write(about ? commandHelp(about.found) : overview(table));
    return;
  }
  const match = findCommand(words, table);
  if (!match) throw unknownCommand(words, table);
  if (match.rest.some((word) => word === '--help' || word === '-h')) {
    process.stdout.write(commandHelp(match.found));
    return;
  }
  await match.found.run(parseOptions(match.found, match.rest));
}

/** One line on stderr for any failure, and the exit code that says which kind it was. */
export function report(error: unknown, debug: boolean): number {
  const usage = error instanceof UsageError;
  const known = usage || error instanceof CommandFailure;
  const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\n\s*/g, ' ');
  const hint = known || debug ? '' : ' (run again with --debug for the details)';
  process.stderr.write(`portaria: ${message}${hint}\n`);
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  return usage ? 2 : 1;
}

export async function main(argv: string[]): Promise<void> {
  try {
    await run(argv);
  } catch (error) {
    process.exit(report(error, argv.includes('--debug')));
  }
}
