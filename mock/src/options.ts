// Command-line options for the CLI and the standalone mock (here, not in the core: the core also runs in browsers, without node:util): node:util's parseArgs with one set of rules (long options, `--name
// value` or `--name=value`, unknown options refused) and its errors in our words.
import { parseArgs, type ParseArgsConfig } from 'node:util';

export class OptionsError extends Error {}

export function parseOptions<T extends NonNullable<ParseArgsConfig['options']>>(argv: string[], options: T, allowPositionals = true) {
  const config: { args: string[]; options: T; allowPositionals: boolean; strict: true } = { args: argv, options, allowPositionals, strict: true };
  try {
    return parseArgs(config);
  } catch (err) {
    const e = err as { code?: string; message: string };
    const option = /'(-[^'\s,]*)/.exec(e.message)?.[1] ?? '';
    if (e.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') throw new OptionsError(`Unknown option "${option}".`);
    if (e.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
      // parseArgs takes "--name -1" for an option without its value; say how to write a value that starts with "-".
      const value = argv[argv.indexOf(option) + 1];
      if (/ambiguous/.test(e.message) && value !== undefined) throw new OptionsError(`Option ${option} has no value: "${value}" reads as an option; write ${option}=${value} to give a value that starts with "-".`);
      throw new OptionsError(`Option ${option} needs a value.`);
    }
    if (e.code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') throw new OptionsError(`Unexpected argument "${/'([^']*)'/.exec(e.message)?.[1] ?? ''}"; this command takes options only.`);
    throw new OptionsError(e.message);
  }
}
