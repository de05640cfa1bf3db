import { readFileSync } from 'node:fs';
import path from 'node:path';

// What an administrator types on the Channels page to connect each fake provider the e2e server
// runs (support/serve.ts writes it into the run's temporary directory).

export const FAKE_PROVIDERS_FILE = 'fake-providers.json';

/** The connection form's fields per channel, keyed as CONNECTION_FIELDS. */
export const fakeProviderFields = (): Record<string, Record<string, string>> => {
  const tmp = process.env.CCP_E2E_TMP;
  if (!tmp) throw new Error('CCP_E2E_TMP is not set: start the tests with `npm test -w @ccp/e2e`.');
  return JSON.parse(readFileSync(path.join(tmp, FAKE_PROVIDERS_FILE), 'utf8')) as Record<
    string,
    Record<string, string>
  >;
};
