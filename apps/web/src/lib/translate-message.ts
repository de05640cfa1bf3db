import type { TMessage } from './messages.ts';

/** A client message in the current language; texts the locale files do not know are shown as sent. */
export const translateMessage = (
  message: TMessage,
  t: (key: string, options: { defaultValue: string } & Record<string, string>) => string,
): string => {
  if (!message.key) return message.text;
  const translated = t(`validation.${message.key}`, {
    ...message.params,
    defaultValue: message.text,
  });
  return message.detail ? `${translated} ${message.detail}` : translated;
};
