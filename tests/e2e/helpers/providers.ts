import { readFileSync } from 'node:fs';
import path from 'node:path';

import type { TProviderStep } from '../support/provider-control.ts';

// What an administrator types on the Channels page to connect each fake provider the e2e server
// runs (support/serve.ts writes it into the run's temporary directory).

export const FAKE_PROVIDERS_FILE = 'fake-providers.json';
/** Where the provider control server listens (support/provider-control.ts). */
export const PROVIDER_CONTROL_FILE = 'provider-control.json';

const readRunFile = <T>(name: string): T => {
  const tmp = process.env.CCP_E2E_TMP;
  if (!tmp) throw new Error('CCP_E2E_TMP is not set: start the tests with `npm test -w @ccp/e2e`.');
  return JSON.parse(readFileSync(path.join(tmp, name), 'utf8')) as T;
};

/** The connection form's fields per channel, keyed as CONNECTION_FIELDS. */
export const fakeProviderFields = (): Record<string, Record<string, string>> =>
  readRunFile(FAKE_PROVIDERS_FILE);

/**
 * A step at a provider (support/provider-control.ts): what the administrator does there while
 * following the guide, or the learner side answering; answers the step's JSON.
 */
export const atProvider = async <T>(step: TProviderStep, input: object = {}): Promise<T> => {
  const { url } = readRunFile<{ url: string }>(PROVIDER_CONTROL_FILE);
  const response = await fetch(`${url}/${step}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(input),
  });
  const body = (await response.json()) as T;
  if (!response.ok) throw new Error(`${step}: ${JSON.stringify(body)}`);
  return body;
};
