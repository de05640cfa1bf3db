import { ApiError, dataProvider, failureIs } from '@ccp/data-provider';
import { API_TOKEN_DEFAULT_DAYS, API_TOKEN_SCOPES, ZOtpCodeSchema } from '@ccp/schemas';
import type { TApiToken, TCreatedApiToken } from '@ccp/schemas';

import type { GlobalOptions } from '../../lib/client.ts';
import { requireSession } from '../../lib/client.ts';
import { UsageError } from '../../lib/errors.ts';
import { canColor, canPrompt } from '../../lib/interactive.ts';
import type { CliIo } from '../../lib/io.ts';
import { printErr, printJson, printOut } from '../../lib/io.ts';
import { CODE_USED_WAITING, sleep, totpCode, untilNextStep } from '../../lib/otp.ts';
import { createPrompter } from '../../lib/prompt.ts';
import { renderTable } from '../../lib/table.ts';

export type TokensCreateOptions = GlobalOptions & {
  name: string;
  scope: string[];
  expires?: number;
  otp?: string;
  json?: boolean;
};
export type TokensOptions = GlobalOptions & { json?: boolean; yes?: boolean };

const dateOf = (iso: string | null) => (iso ? iso.slice(0, 16).replace('T', ' ') : 'never');

/**
 * `ccp tokens create --name --scope … [--expires DAYS]`: needs a fresh code (`--otp`,
 * CCP_TOTP_SECRET or the prompt). Prints the token once, on stdout, for `> file` or a CI secret.
 */
export async function tokensCreate(options: TokensCreateOptions, io: CliIo): Promise<void> {
  const session = requireSession(options, io);
  if (session.usesToken)
    throw new UsageError('API tokens cannot create tokens: unset CCP_TOKEN and run: ccp login');
  const unknown = options.scope.filter(
    (scope) => !(API_TOKEN_SCOPES as readonly string[]).includes(scope),
  );
  if (unknown.length > 0 || options.scope.length === 0) {
    throw new UsageError(`--scope: one or more of ${API_TOKEN_SCOPES.join(', ')}.`);
  }
  if (options.otp !== undefined && !ZOtpCodeSchema.safeParse(options.otp).success) {
    throw new UsageError('--otp: expected the 6-digit code from your authenticator app.');
  }
  const secret = io.env.CCP_TOTP_SECRET || undefined;
  const ask = await createPrompter(io, canPrompt(io, options));
  const code = async () =>
    options.otp ??
    (secret
      ? totpCode(secret)
      : await ask.text({
          message: 'Code from your authenticator app',
          flag: '--otp <code> (or CCP_TOTP_SECRET)',
        }));
  const provider = dataProvider(session.client);
  const create = async (value: string) =>
    (
      await provider.create<TCreatedApiToken>({
        resource: 'api-tokens',
        variables: {
          name: options.name,
          scopes: options.scope,
          expires_in_days: options.expires ?? API_TOKEN_DEFAULT_DAYS,
          code: value,
        },
        meta: secret && !options.otp ? { errorFeedback: 'caller' } : {},
      })
    ).data;
  let token: TCreatedApiToken;
  try {
    token = await create(await code());
  } catch (error) {
    if (!(
      secret &&
      !options.otp &&
      error instanceof ApiError &&
      failureIs(error, 'CODE_ALREADY_USED')
    )) {
      if (error instanceof ApiError && secret && !options.otp) printErr(io, error.message);
      throw error;
    }
    printErr(io, CODE_USED_WAITING);
    await sleep(untilNextStep());
    token = await create(await code());
  }
  if (options.json) printJson(io, token);
  else {
    printOut(io, token.token);
    printErr(
      io,
      `Created the token "${token.name}" (${token.scopes.join(', ')}), valid until ${dateOf(token.expires_at)} UTC. It is shown only now: keep it as a secret (CCP_TOKEN).`,
    );
  }
}

/** `ccp tokens list`: name, scopes, expiry and last use; never the tokens themselves. */
export async function tokensList(options: TokensOptions, io: CliIo): Promise<void> {
  const session = requireSession(options, io);
  const { data } = await dataProvider(session.client).getList<TApiToken>({
    resource: 'api-tokens',
  });
  if (options.json) {
    printJson(io, data);
    return;
  }
  if (data.length === 0) {
    printErr(io, 'No API tokens. Create one: ccp tokens create --name ci --scope exports:read');
    return;
  }
  printOut(
    io,
    renderTable(
      data,
      [
        { header: 'NAME', value: (token) => token.name },
        { header: 'SCOPES', value: (token) => token.scopes.join(',') },
        { header: 'TOKEN', value: (token) => token.hint },
        {
          header: 'EXPIRES',
          // An expired token is still listed (it can be revoked) but no longer works: say so.
          value: (token) =>
            Date.parse(token.expires_at) <= Date.now()
              ? `${dateOf(token.expires_at)} (expired)`
              : dateOf(token.expires_at),
        },
        { header: 'LAST USED', value: (token) => dateOf(token.last_used_at) },
        { header: 'UUID', value: (token) => token.uuid },
      ],
      { color: canColor(io, 'stdout') },
    ),
  );
}

/** `ccp tokens revoke <name|uuid>`: it stops working at once. */
export async function tokensRevoke(
  wanted: string,
  options: TokensOptions,
  io: CliIo,
): Promise<void> {
  const session = requireSession(options, io);
  const provider = dataProvider(session.client);
  const { data } = await provider.getList<TApiToken>({ resource: 'api-tokens' });
  const matches = data.filter((token) => token.uuid === wanted || token.name === wanted);
  if (matches.length !== 1) {
    throw new UsageError(
      matches.length === 0
        ? `No API token "${wanted}". See: ccp tokens list`
        : `${matches.length} tokens are named "${wanted}": give the uuid.`,
    );
  }
  const token = matches[0]!;
  await provider.deleteOne({ resource: 'api-tokens', id: token.uuid });
  if (options.json) printJson(io, { revoked: token.uuid });
  else printErr(io, `Revoked the token "${token.name}".`);
}
