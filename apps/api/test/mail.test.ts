import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';

import { SMTPServer } from 'smtp-server';
import { afterAll, describe, expect, it } from 'vitest';

import { drainJobs } from '../src/jobs/runner.ts';
import { sendMail } from '../src/lib/mail.ts';
import { HEADER, csv, uploadImport } from './fixtures/imports.ts';
import { buildTestApp, call, createSignedInUser, createUser, signIn } from './helper.ts';

// E-mail: with SMTP_URL every mail is sent over SMTP (here to a real listener on 127.0.0.1) and
// recorded in the outbox with its outcome; without it, mails only reach the outbox, which the
// recipient reads at GET /api/v1/users/me/outbox.

type Received = { from: string; to: string[]; raw: string };

const startSmtp = async () => {
  const received: Received[] = [];
  const logins: { username: string | undefined; password: string | undefined }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      logins.push({ username: auth.username ?? undefined, password: auth.password ?? undefined });
      if (auth.username === 'ccp' && auth.password === 's3cret') callback(null, { user: 'ccp' });
      else callback(new Error('Invalid username or password'));
    },
    onRcptTo(address, _session, callback) {
      if (address.address.startsWith('refused')) {
        const error = Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 });
        callback(error);
      } else callback();
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = (
    server as unknown as { server: { address: () => AddressInfo } }
  ).server.address();
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port, received, logins };
};

/** A port nothing listens on. */
const closedPort = async () => {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
};

const outboxRow = (app: Awaited<ReturnType<typeof buildTestApp>>, uuid: string) =>
  app.db
    .selectFrom('outbox_messages')
    .selectAll()
    .where('uuid', '=', uuid)
    .executeTakeFirstOrThrow();

describe('mail over SMTP', async () => {
  const smtp = await startSmtp();
  const app = await buildTestApp({
    mail: {
      smtpUrl: `smtp://ccp:s3cret@127.0.0.1:${smtp.port}`,
      from: 'CCP Test <ccp@test.local>',
    },
  });

  it('sends the mail with the URL’s credentials and records it as sent', async () => {
    const uuid = await sendMail(app, {
      to: 'trainer@example.test',
      subject: 'Hello from CCP',
      text: 'Plain text body.',
      html: '<p>HTML body.</p>',
    });
    const mail = smtp.received.at(-1)!;
    expect(mail.from).toBe('ccp@test.local');
    expect(mail.to).toEqual(['trainer@example.test']);
    expect(mail.raw).toContain('Subject: Hello from CCP');
    expect(mail.raw).toContain('From: CCP Test <ccp@test.local>');
    expect(mail.raw).toContain('To: trainer@example.test');
    expect(mail.raw).toContain('Plain text body.');
    expect(mail.raw).toContain('<p>HTML body.</p>');
    expect(smtp.logins.at(-1)).toEqual({ username: 'ccp', password: 's3cret' });
    expect(await outboxRow(app, uuid)).toMatchObject({
      kind: 'email',
      channel: 'email',
      recipient: 'trainer@example.test',
      subject: 'Hello from CCP',
      status: 'sent',
      attempts: 1,
      last_error: null,
      sent_at: app.clock.now().toISOString(),
    });
  });

  it('records a refused mail as failed with the server’s answer, without throwing', async () => {
    const uuid = await sendMail(app, {
      to: 'refused@example.test',
      subject: 'Nobody home',
      text: 'x',
    });
    const row = await outboxRow(app, uuid);
    expect(row).toMatchObject({ status: 'failed', attempts: 1, sent_at: null });
    expect(row.last_error).toContain('Mailbox unavailable');
  });

  it('e-mails the import summary to the requester when the job finishes', async () => {
    const { user, headers } = await createSignedInUser(app);
    const upload = await uploadImport(app, headers, {
      name: 'smtp.csv',
      content: csv([HEADER, ['Ada', 'Lovelace', 'smtp-ada@example.test', '', 'slack', 'en']]),
    });
    expect(upload.statusCode).toBe(202);
    const before = smtp.received.length;
    await drainJobs(app);
    expect(smtp.received.length).toBe(before + 1);
    const mail = smtp.received.at(-1)!;
    expect(mail.to).toEqual([user.email]);
    expect(mail.raw).toContain('Subject: Your learners import is complete: smtp.csv');
    expect(mail.raw).toContain('Created: 1');
    const outbox = await call(app, { method: 'GET', url: '/api/v1/users/me/outbox', headers });
    expect(outbox.json.data[0]).toMatchObject({
      to: user.email,
      from: 'CCP Test <ccp@test.local>',
      subject: 'Your learners import is complete: smtp.csv',
      status: 'sent',
      error: null,
    });
  });
});

describe('mail with an unreachable SMTP server', async () => {
  const port = await closedPort();
  const app = await buildTestApp({ mail: { smtpUrl: `smtp://127.0.0.1:${port}` } });

  it('records the mail as failed with the connection error', async () => {
    const uuid = await sendMail(app, { to: 'a@example.test', subject: 'S', text: 'T' });
    const row = await outboxRow(app, uuid);
    expect(row.status).toBe('failed');
    expect(row.last_error).toMatch(/ECONNREFUSED|connect/i);
  });
});

describe('mail without SMTP: the outbox', async () => {
  const app = await buildTestApp();

  it('keeps the mail in the outbox only, readable by its recipient, newest first', async () => {
    const { user, company, headers } = await createSignedInUser(app);
    const colleague = await createUser(app, company);
    await sendMail(app, {
      to: user.email,
      subject: 'First',
      text: 'one',
      companyUuid: company.uuid,
    });
    app.testClock.advance(1000);
    await sendMail(app, { to: user.email, subject: 'Second', text: 'two', html: '<b>two</b>' });
    await sendMail(app, { to: colleague.email, subject: 'Not yours', text: 'three' });

    const page = await call(app, { method: 'GET', url: '/api/v1/users/me/outbox', headers });
    expect(page.statusCode).toBe(200);
    expect(page.json.data).toEqual([
      {
        uuid: expect.any(String),
        from: 'CCP <no-reply@ccp.local>',
        to: user.email,
        subject: 'Second',
        text: 'two',
        html: '<b>two</b>',
        status: 'stored',
        error: null,
        created_at: app.clock.now().toISOString(),
        sent_at: null,
      },
      expect.objectContaining({ subject: 'First', text: 'one', html: null, status: 'stored' }),
    ]);
    expect(page.json.meta).toMatchObject({ total: 2, per_page: 15 });

    const second = await call(app, {
      method: 'GET',
      url: '/api/v1/users/me/outbox?per_page=1&page=2',
      headers,
    });
    expect((second.json.data as { subject: string }[]).map((mail) => mail.subject)).toEqual([
      'First',
    ]);
    expect(second.json.links.prev).toBe('/api/v1/users/me/outbox?per_page=1&page=1');

    const theirs = await call(app, {
      method: 'GET',
      url: '/api/v1/users/me/outbox',
      headers: { authorization: `Bearer ${(await signIn(app, colleague)).access_token}` },
    });
    expect((theirs.json.data as { subject: string }[]).map((mail) => mail.subject)).toEqual([
      'Not yours',
    ]);

    const anonymous = await call(app, { method: 'GET', url: '/api/v1/users/me/outbox' });
    expect(anonymous.statusCode).toBe(401);
  });
});
