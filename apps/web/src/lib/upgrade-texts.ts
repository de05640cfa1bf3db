import {
  SUBSCRIPTION_FUNCTION_KEYS,
  UPGRADE_GENERIC_TEXT_KEY,
  errorTextKey,
  limitReachedMessage,
  upgradeTranslationKeys,
} from '@ccp/schemas';
import type { TLimitPayload, TSubscriptionFunctionKey } from '@ccp/schemas';

/** What the http client reports for a 402 (its `upgrade` event). */
export type TUpgradeRequest = { message: string | null; limit?: TLimitPayload };

export type TUpgradeTexts = {
  /** The spec §6 key of the 402 text ("Learners limit reached." → learners_limit_reached). */
  textKey: string;
  title: string;
  description: string;
  /** The plan function's name, when known. */
  feature: string | null;
  /** What the upgrade request sends as `requestedFunction`; null when the 402 names none. */
  requestedFunction: TSubscriptionFunctionKey | null;
  required: number | null;
  limit: number | null;
};

/** Local texts: `(key) => text`, or undefined when the locale files have no such key. */
export type TLocalLookup = (key: string) => string | undefined;

const isFunctionKey = (value: string): value is TSubscriptionFunctionKey =>
  (SUBSCRIPTION_FUNCTION_KEYS as readonly string[]).includes(value);

/** The plan function of a 402: from its payload, else recognised from its text. */
export const requestedFunctionOf = (request: TUpgradeRequest): TSubscriptionFunctionKey | null => {
  const feature = request.limit?.feature;
  if (feature && isFunctionKey(feature)) return feature;
  if (!request.message) return null;
  const textKey = errorTextKey(request.message);
  return (
    SUBSCRIPTION_FUNCTION_KEYS.find((key) => errorTextKey(limitReachedMessage(key)) === textKey) ??
    null
  );
};

/**
 * The upgrade modal's texts (spec §6): the 402 text becomes a key (lowercased, spaces to
 * underscores, dots removed); the title and description are `upgrade.<key>.*` from the server's
 * translations (GET /api/v1/translations), else `upgrade.generic.*`, else the local locale files.
 * The server says the 402 text in the user's language, so when the payload names the plan
 * function the key comes from that function's English text ("Learners limit reached." →
 * learners_limit_reached), whatever the language the message arrived in.
 */
export const upgradeTexts = (
  request: TUpgradeRequest,
  server: ReadonlyMap<string, string>,
  local: TLocalLookup,
): TUpgradeTexts => {
  const feature = request.limit?.feature;
  const textKey =
    feature && isFunctionKey(feature)
      ? errorTextKey(limitReachedMessage(feature))
      : request.message
        ? errorTextKey(request.message)
        : UPGRADE_GENERIC_TEXT_KEY;
  const specific = upgradeTranslationKeys(textKey);
  const generic = upgradeTranslationKeys(UPGRADE_GENERIC_TEXT_KEY);
  const pick = (field: 'title' | 'description') =>
    server.get(specific[field]) ??
    server.get(generic[field]) ??
    local(`modals.upgrade.generic.${field}`) ??
    '';
  const requestedFunction = requestedFunctionOf(request);
  const featureName = requestedFunction
    ? (server.get(`upgrade.${textKey}.feature`) ??
      server.get(`subscription_functions.${requestedFunction}`) ??
      local(`enum.subscriptionFunction.${requestedFunction}`) ??
      requestedFunction)
    : null;
  return {
    textKey,
    title: pick('title'),
    description: pick('description'),
    feature: featureName,
    requestedFunction,
    required: request.limit?.required ?? null,
    limit: request.limit?.limit ?? null,
  };
};

/** The thank-you texts after the request was sent, server first. */
export const upgradeThanks = (server: ReadonlyMap<string, string>, local: TLocalLookup) => ({
  title: server.get('upgrade.thank_you.title') ?? local('modals.upgrade.thanks.title') ?? '',
  description:
    server.get('upgrade.thank_you.description') ?? local('modals.upgrade.thanks.description') ?? '',
});
