import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { DEMO_TOTP_SECRET } from '../helpers/accounts.ts';
import { FAKE_PROVIDERS_FILE, PROVIDER_CONTROL_FILE } from '../helpers/providers.ts';

// The server under test: what `npm start` runs (the built apps/api/dist/server.js, so a defect
// of the bundle shows here as it would to users), in this process, on a fresh SQLite database in the run's temporary directory (the demo is seeded into the empty
// database). Playwright starts it (playwright.config.ts `webServer`) and stops it with SIGTERM.

const tmp = process.env.CCP_E2E_TMP;
if (!tmp) throw new Error('CCP_E2E_TMP is not set: start the tests with `npm test -w @ccp/e2e`.');
const dataDir = path.join(tmp, 'data');
mkdirSync(dataDir, { recursive: true });
process.on('exit', () => rmSync(tmp, { recursive: true, force: true }));

process.env.CCP_DATA_DIR = dataDir;
process.env.CCP_SEED = 'demo';
process.env.CCP_DEMO_TOTP_SECRET = DEMO_TOTP_SECRET;
process.env.LOG_LEVEL ??= 'warn';
// As behind a reverse proxy: a spec that trips the per-address sign-in limit sends its own
// X-Forwarded-For, so the other specs (all from 127.0.0.1) are not locked out.
process.env.CCP_TRUST_PROXY = '1';
// E-mail links (password reset, invitations) point at this server.
process.env.CCP_PUBLIC_URL = `http://127.0.0.1:${process.env.PORT}`;
// Whatever the shell points at (PostgreSQL, SMTP, OpenAI) stays out of the browser tests.
for (const name of ['DATABASE_URL', 'DATABASE_SCHEMA', 'SMTP_URL', 'OPENAI_API_KEY']) {
  delete process.env[name];
}

// CCP_E2E_FAKE_AI=1: a server whose AI provider is the local fake (support/fake-openai.ts), for
// the specs of the AI translation; the others run without a key (the offline generator).
if (process.env.CCP_E2E_FAKE_AI === '1') {
  const { FAKE_AI_KEY, startFakeOpenAi } = await import('./fake-openai.ts');
  const fake = await startFakeOpenAi();
  process.env.OPENAI_API_KEY = FAKE_AI_KEY;
  process.env.OPENAI_BASE_URL = fake.baseUrl;
}
// Chat providers: the five fakes on 127.0.0.1 (their real protocols, apps/api/test/fakes), and a
// fixed key for the channel connections' secrets, so the Channels page connects for real. What
// an administrator types to connect each fake goes to FAKE_PROVIDERS_FILE for the specs.
const { startFakeProviders } = await import('../../../apps/api/test/fakes/providers.ts');
const providers = await startFakeProviders();
Object.assign(process.env, providers.env);
// "Add to Slack" sends the browser to the fake's authorize page.
process.env.CCP_SLACK_AUTHORIZE_URL = providers.slack.authorizeUrl;
process.env.CCP_SECRETS_KEY ??= Buffer.alloc(32, 7).toString('base64');
writeFileSync(path.join(tmp, FAKE_PROVIDERS_FILE), JSON.stringify(providers.fields));
// What the administrator and the learner side do at each provider, driven by the specs
// (support/provider-control.ts): its address goes beside the fields.
const { startProviderControl } = await import('./provider-control.ts');
writeFileSync(
  path.join(tmp, PROVIDER_CONTROL_FILE),
  JSON.stringify({ url: await startProviderControl(providers) }),
);

// A path held in a variable: the type check runs before the build, when dist/ may not exist.
const builtServer: string = '../../../apps/api/dist/server.js';
await import(builtServer);
