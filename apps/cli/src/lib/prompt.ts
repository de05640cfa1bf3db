import { UsageError } from './errors.ts';
import type { CliIo } from './io.ts';

export type AskOptions = {
  message: string;
  /** The flag that gives this value without a prompt, named in the error when ccp cannot ask. */
  flag: string;
  /** A message for a bad answer, or undefined when it is fine. */
  validate?: (value: string) => string | undefined;
};

/** Every prompt goes through here: off a terminal it fails (exit 2) instead of hanging. */
export type Prompter = {
  text: (options: AskOptions) => Promise<string>;
  secret: (options: AskOptions) => Promise<string>;
  /** Yes or no; off a terminal it fails naming the flag (`--yes`). */
  confirm: (options: Omit<AskOptions, 'validate'>) => Promise<boolean>;
};

/** The exit-2 error for input ccp would have asked for, naming the flags that give it. */
export const cannotPrompt = (flags: string): UsageError =>
  new UsageError(`Missing ${flags}: ccp cannot prompt here (not a terminal, --no-input or CI).`);

/** A prompter over @inquirer/prompts when `interactive` (see canPrompt), else one that refuses. */
export const createPrompter = async (io: CliIo, interactive: boolean): Promise<Prompter> => {
  if (!interactive) {
    return {
      text: ({ flag }) => Promise.reject(cannotPrompt(flag)),
      secret: ({ flag }) => Promise.reject(cannotPrompt(flag)),
      confirm: ({ flag }) => Promise.reject(cannotPrompt(flag)),
    };
  }
  const { confirm, input, password } = await import('@inquirer/prompts');
  const context = { input: io.stdin, output: io.stdout as NodeJS.WritableStream };
  const check = (validate: AskOptions['validate']) => (value: string) => validate?.(value) ?? true;
  return {
    text: ({ message, validate }) =>
      input({ message, validate: check(validate) }, context).then((value) => value.trim()),
    secret: ({ message, validate }) =>
      password({ message, mask: true, validate: check(validate) }, context),
    confirm: ({ message }) => confirm({ message, default: false }, context),
  };
};
