import { MESSAGES } from '@ccp/schemas';

import { messageText } from '../i18n/messages.ts';
import { AppError } from '../lib/app-error.ts';
import { AiProviderError } from './provider.ts';
import { TranslationMissingError, TranslationSizeError } from './translate.ts';

// A provider's failures as the answers the clients show (docs/ai.md "Providers"): used by the AI
// routes and by the import job alike.

/** A provider failure as the 502 the client shows; translation has its own server-error text. */
export const providerFailure = (error: AiProviderError, translating = false): AppError => {
  const message =
    error.kind === 'invalid'
      ? MESSAGES.aiInvalidResponse
      : error.kind === 'refused'
        ? messageText('aiProviderRefused', { status: error.status ?? 400 })
        : translating
          ? MESSAGES.translationServerError
          : error.kind === 'timeout'
            ? MESSAGES.aiProviderTimeout
            : MESSAGES.aiProviderFailed;
  return new AppError('AI_PROVIDER_ERROR', message);
};

export const withProviderErrors = async <T>(
  work: () => Promise<T>,
  translating = false,
): Promise<T> => {
  try {
    return await work();
  } catch (error) {
    if (error instanceof AiProviderError) throw providerFailure(error, translating);
    if (error instanceof TranslationSizeError) {
      throw new AppError(
        'AI_PROVIDER_ERROR',
        messageText('translationSizeMismatch', { sent: error.sent, received: error.received }),
      );
    }
    if (error instanceof TranslationMissingError) {
      throw new AppError('AI_PROVIDER_ERROR', MESSAGES.translationNotFound);
    }
    throw error;
  }
};
