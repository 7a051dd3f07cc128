/**
 * What a command of `portaria` is: its name, a line for the overview, its options (each with the text `--help`
 * shows) and what it does. A command is one module exporting one `Command`, listed in `main/cli/commands.ts`.
 *
 * Errors a command meets are said in one line naming the problem and the fix: `UsageError` for what was typed
 * (exit 2), `CommandFailure` for what the machine refused (exit 1). `main/cli/main.ts` prints them; a stack trace is
 * printed only with `--debug`.
 */
import { parseArgs } from 'node:util';

export interface StringOption {
  type: 'string';
  /** The value's placeholder in the usage text: `<n>`, `<dir>`. */
  value: string;
  help: string;
  required?: boolean;
}

export interface FlagOption {
  type: 'boolean';
  help: string;
}

export type OptionSpec = StringOption | FlagOption;
export type OptionSpecs = Readonly<Record<string, OptionSpec>>;

/** The parsed options: a string (or undefined) per string option, a boolean per flag. */
export type OptionValues<Options extends OptionSpecs> = {
  [Name in keyof Options]: Options[Name] extends FlagOption
    ? boolean
    : Options[Name] extends { required: true }
      ? string
      : string | undefined;
};

export interface Command<Options extends OptionSpecs = OptionSpecs> {
  /** One or two words: `serve`, `company create`. */
  name: string;
  /** One line for `portaria --help`. */
  summary: string;
  /** More lines for `portaria <command> --help`, after the options. */
  details?: string;
  options: Options;
  run(values: OptionValues<Options>): Promise<void> | void;
}

/** Checks a command's type against its options and keeps it as one entry of the command table. */
export function command<const Options extends OptionSpecs>(definition: Command<Options>): Command {
  return definition as unknown as Command;
}

/** Something typed wrong: said in one line with the fix; exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** Something the machine refused (a port in use, a folder that cannot be written): one line with the fix; exit 1. */
export class CommandFailure extends Error {
  override name = 'CommandFailure';
}

/** Where a command's options are explained, for the end of a usage error. */
export const helpHint = (commandName: string) => `see portaria ${commandName} --help`;

/** The options as parseArgs reads them, and the required ones checked, with a usage error for anything else. */
export function parseOptions<Options extends OptionSpecs>(
  definition: Command<Options>,
  args: string[],
): OptionValues<Options> {
  const config = Object.fromEntries(
    Object.entries(definition.options).map(([name, spec]) => [name, { type: spec.type }]),
  );
  let values: Record<string, string | boolean | undefined>;
  try {
    values = parseArgs({
      args: negativeNumbersAsValues(args, definition),
      options: config,
      strict: true,
      allowPositionals: false,
    }).values as typeof values;
  } catch (error) {
    throw new UsageError(`${parseProblem(error as NodeJS.ErrnoException, definition)} (${helpHint(definition.name)})`);
  }
  const missing = Object.entries(definition.options)
    .filter(([name, spec]) => spec.type === 'string' && spec.required && values[name] === undefined)
    .map(([name]) => `--${name}`);
  if (missing.length > 0) {
    throw new UsageError(`${definition.name} needs ${listed(missing)} (${helpHint(definition.name)})`);
  }
  for (const [name, spec] of Object.entries(definition.options)) {
    if (spec.type === 'boolean') values[name] ??= false;
  }
  return values as OptionValues<Options>;
}

/**
 * `--port -1`: parseArgs takes `-1` for an option (so the value would be "missing"); no option of ours is a digit,
 * so a word that starts with `-` and a digit after a string option is its value, and is checked as one.
 */
function negativeNumbersAsValues(args: string[], definition: Command): string[] {
  const joined: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const next = args[i + 1];
    const takesValue = arg.startsWith('--') && definition.options[arg.slice(2)]?.type === 'string';
    if (takesValue && next !== undefined && /^-\d/.test(next)) {
      joined.push(`${arg}=${next}`);
      i += 1;
    } else {
      joined.push(arg);
    }
  }
  return joined;
}

/** parseArgs's own messages are long and speak of its API; these say what was typed. */
function parseProblem(error: NodeJS.ErrnoException, definition: Command): string {
  const option = /'(-[^' ]+)/.exec(error.message)?.[1];
  switch (error.code) {
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      return /argument missing|ambiguous/.test(error.message)
        ? `${option?.split(' ')[0] ?? 'an option'} needs a value`
        : `${option ?? 'an option'} takes no value`;
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return `${definition.name} has no option ${option ?? ''}`.trim();
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL': {
      const word = /'([^']*)'/.exec(error.message)?.[1];
      return `${definition.name} takes no argument ${word ? `"${word}"` : ''}: options start with --`.replace(
        '  ',
        ' ',
      );
    }
    default:
      return error.message;
  }
}

const listed = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;

/** `portaria serve --help`: the synopsis, each option on its line, then the details. */
export function commandHelp(definition: Command): string {
  const options = Object.entries(definition.options);
  const synopsis = options
    .map(([name, spec]) => {
      const text = spec.type === 'string' ? `--${name} ${spec.value}` : `--${name}`;
      return spec.type === 'string' && spec.required ? text : `[${text}]`;
    })
    .join(' ');
  const labels = options.map(([name, spec]) => (spec.type === 'string' ? `--${name} ${spec.value}` : `--${name}`));
  const width = Math.max(0, ...labels.map((label) => label.length)) + 2;
  const lines = [`Usage: portaria ${definition.name} ${synopsis}`.trimEnd(), '', definition.summary];
  if (options.length > 0) {
    lines.push('', 'Options:');
    options.forEach(([, spec], i) => {
      lines.push(`  ${(labels[i] ?? '').padEnd(width)}${spec.help}`);
    });
  }
  if (definition.details) lines.push('', definition.details);
  return `${lines.join('\n')}\n`;
}
