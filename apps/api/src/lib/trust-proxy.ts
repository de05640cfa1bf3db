import { isIP } from 'node:net';

// Which X-Forwarded-For entries to believe (CCP_TRUST_PROXY, issue 30). `1` used to trust every
// hop, so a client that sent its own header (nginx's $proxy_add_x_forwarded_for appends to it)
// chose the address the sign-in limit, the audit log and the session list saw. Now the server
// believes exactly the proxies it is told of: a number of hops in front of it, or their addresses.

/**
 * false: no proxy, the socket's address is the client's. A number: that many proxies in front
 * (the client is the entry that many places from the end of X-Forwarded-For, counting the
 * socket). A list: the proxies' own addresses or CIDR ranges (every hop from one of them is
 * believed, the first other address is the client).
 */
export type TrustProxy = false | number | string[];

/** proxy-addr's names for address ranges, accepted in the list as they are. */
const RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

const isAddressOrRange = (entry: string): boolean => {
  if (RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  const bits = Number(prefix);
  return /^\d+$/.test(prefix) && bits >= 0 && bits <= (version === 4 ? 32 : 128);
};

/**
 * Reads CCP_TRUST_PROXY: unset, `0`, `false` or `no` → false; `true`/`yes` → 1 (one proxy, as
 * the old switch was meant); a whole number of hops; or a comma-separated list of addresses and
 * CIDR ranges. Anything else stops start-up naming the variable.
 */
export const parseTrustProxy = (value: string | undefined): TrustProxy => {
  const text = (value ?? '').trim().toLowerCase();
  if (['', '0', 'false', 'no', 'off'].includes(text)) return false;
  if (['true', 'yes', 'on'].includes(text)) return 1;
  if (/^\d+$/.test(text)) return Number(text);
  const entries = text
    .split(',')
    .map((entry) => entry.trim())
    .filter((entry) => entry !== '');
  const wrong = entries.find((entry) => !isAddressOrRange(entry));
  if (entries.length === 0 || wrong !== undefined) {
    throw new Error(
      `CCP_TRUST_PROXY must be a number of proxy hops or a comma-separated list of proxy addresses or CIDR ranges, got "${value}"`,
    );
  }
  return entries;
};

/**
 * Fastify's `trustProxy` for a setting. A hop count becomes proxy-addr's own rule (the socket is
 * hop 0): Fastify turns a bare number into "trust none". With a count, the server must be
 * reachable only through its proxies, or a direct client's header is believed; a list of the
 * proxies' addresses has no such condition.
 */
export const fastifyTrustProxy = (
  setting: TrustProxy,
): false | string[] | ((address: string, hop: number) => boolean) => {
  if (typeof setting !== 'number') return setting;
  return (_address, hop) => hop < setting;
};
