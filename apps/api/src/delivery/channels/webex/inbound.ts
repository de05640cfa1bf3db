import { createHmac, timingSafeEqual } from 'node:crypto';

// Webex webhooks, verified as Webex signs them: X-Spark-Signature is the HMAC-SHA1 (hex) of the
// raw body with the secret the webhook was registered with. The body names the bot that
// created the webhook (`createdBy`), which picks the connection and so the secret.

export const webexSignature = (secret: string, rawBody: string) =>
  createHmac('sha1', secret).update(rawBody).digest('hex');

export const verifyWebexRequest = (
  secret: string,
  signature: string | undefined,
  rawBody: string,
) => {
  if (!signature) return false;
  const expected = Buffer.from(webexSignature(secret, rawBody));
  const given = Buffer.from(signature.toLowerCase());
  return expected.length === given.length && timingSafeEqual(expected, given);
};

export type WebexNotification = {
  id: string;
  createdBy: string;
  resource: string;
  event: string;
  actionId: string;
};

export const parseWebexNotification = (rawBody: string): WebexNotification | null => {
  try {
    const data = JSON.parse(rawBody) as {
      id?: string;
      createdBy?: string;
      resource?: string;
      event?: string;
      data?: { id?: string };
    };
    if (!data.id || !data.createdBy || !data.data?.id || !data.resource || !data.event) return null;
    return {
      id: data.id,
      createdBy: data.createdBy,
      resource: data.resource,
      event: data.event,
      actionId: data.data.id,
    };
  } catch {
    return null;
  }
};
