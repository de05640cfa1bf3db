import { randomBytes } from 'node:crypto';

import { unzipSync, strFromU8 } from 'fflate';
import { imageSize } from 'image-size';
import { describe, expect, it } from 'vitest';

import { saveConnection } from '../../src/delivery/connections.ts';
import { TEAMS_MANIFEST_VERSION } from '../../src/delivery/channels/teams/app-package.ts';
import { decodePng } from '../fixtures/png.ts';
import { teamsLocalizationErrors, teamsManifestErrors } from '../fixtures/teams-schema.ts';
import { buildTestApp, call, createCompany, createUser, signIn } from '../helper.ts';
import type { TestApp } from '../helper.ts';

// The Teams app package (issue 29): the zip an administrator uploads in the Teams admin centre,
// checked as Teams would take it: manifest.json valid against Microsoft's published manifest
// schema, the icons at the sizes and colours the manifest reference asks for, one bot (the
// company's) in personal scope only, and every refusal said in the user's language.

const PUBLIC_URL = 'https://ccp.example.test';
const APP_ID = '3F2B6C1E-8A4D-4E59-9B1A-2C7D5E8F9A01';
const PACKAGE = '/api/v1/channel-connections/ms-teams/app-package';
// Longer than the manifest's developer.name (32): the package must still be valid.
const COMPANY = 'Scuola di Formazione Professionale Rossi & Figli S.r.l.';

/** A company of `app` with its administrator, and a Teams connection naming `appId` (null: none). */
const companyWith = async (app: TestApp, appId: string | null) => {
  const company = await createCompany(app, { name: COMPANY });
  const admin = await createUser(app, company);
  if (appId !== null) {
    await saveConnection(app, {
      companyUuid: company.uuid,
      channel: 'ms-teams',
      providerIds: { tenant_id: '9d3f5a1b-2c4e-4f6a-8b7c-0d1e2f3a4b5c', app_id: appId },
      secrets: { app_password: 'secret' },
      userUuid: admin.uuid,
    });
  }
  const headers = { authorization: `Bearer ${(await signIn(app, admin)).access_token}` };
  return { app, company, headers };
};

const download = async (target: Awaited<ReturnType<typeof companyWith>>, language = 'en') =>
  call(target.app, {
    method: 'GET',
    url: PACKAGE,
    headers: { ...target.headers, 'accept-language': language },
  });

const appAt = (publicUrl: string) =>
  buildTestApp({ publicUrl, secretsKey: randomBytes(32).toString('base64') });

describe('The Teams app package', async () => {
  const app = await appAt(PUBLIC_URL);
  const connected = await companyWith(app, APP_ID);
  const downloaded = download(connected);
  const filesOf = async () => unzipSync(new Uint8Array((await downloaded).rawPayload));

  it('is a zip Teams takes: the manifest valid against the published schema, with the two icons and the it/de texts at its top level', async () => {
    const response = await downloaded;
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/zip');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="ccp-teams-app.zip"',
    );
    const files = await filesOf();
    expect(Object.keys(files).sort()).toEqual([
      'color.png',
      'de.json',
      'it.json',
      'manifest.json',
      'outline.png',
    ]);
    const manifest = JSON.parse(strFromU8(files['manifest.json']!)) as Record<string, any>;
    expect(await teamsManifestErrors(manifest)).toEqual([]);
    // The check bites: the company's whole name is longer than developer.name may be.
    expect(
      await teamsManifestErrors({
        ...manifest,
        developer: { ...manifest.developer, name: COMPANY },
      }),
    ).toEqual(['/developer/name must NOT have more than 32 characters']);
    expect(manifest.manifestVersion).toBe(TEAMS_MANIFEST_VERSION);
    for (const language of ['it', 'de']) {
      const texts = JSON.parse(strFromU8(files[`${language}.json`]!)) as Record<string, any>;
      expect(await teamsLocalizationErrors(texts)).toEqual([]);
    }
    expect(JSON.parse(strFromU8(files['it.json']!))['description.short']).toBe(
      'Le tue micro-lezioni quotidiane, a cui rispondi qui in Teams.',
    );
  });

  it('names the company’s bot, in personal scope only, and this server’s domain', async () => {
    const manifest = JSON.parse(strFromU8((await filesOf())['manifest.json']!)) as Record<
      string,
      any
    >;
    const bot = APP_ID.toLowerCase();
    expect(manifest.id).toBe(bot);
    expect(manifest.bots).toEqual([
      {
        botId: bot,
        scopes: ['personal'],
        isNotificationOnly: false,
        supportsFiles: false,
        supportsCalling: false,
        supportsVideo: false,
      },
    ]);
    expect(manifest.defaultInstallScope).toBe('personal');
    expect(manifest.validDomains).toEqual(['ccp.example.test']);
    expect(manifest.developer).toEqual({
      name: 'Scuola di Formazione Profession…',
      websiteUrl: PUBLIC_URL,
      privacyUrl: PUBLIC_URL,
      termsOfUseUrl: PUBLIC_URL,
    });
    expect(manifest.name).toEqual({ short: 'CCP', full: `CCP lessons from ${COMPANY}` });
    expect(manifest.localizationInfo).toEqual({
      defaultLanguageTag: 'en',
      additionalLanguages: [
        { languageTag: 'it', file: 'it.json' },
        { languageTag: 'de', file: 'de.json' },
      ],
    });
  });

  // https://learn.microsoft.com/en-us/microsoft-365/extensibility/schema/root-icons: color is a
  // full colour 192×192 PNG; outline a transparent 32×32 PNG whose strokes are white.
  it('has a full-bleed 192×192 colour icon and a white-on-transparent 32×32 outline icon', async () => {
    const files = await filesOf();
    const color = Buffer.from(files['color.png']!);
    const outline = Buffer.from(files['outline.png']!);
    expect(imageSize(color)).toMatchObject({ width: 192, height: 192, type: 'png' });
    expect(imageSize(outline)).toMatchObject({ width: 32, height: 32, type: 'png' });

    const colour = decodePng(color);
    const alphas = new Set<number>();
    const colours = new Set<string>();
    for (let at = 0; at < colour.pixels.length; at += 4) {
      alphas.add(colour.pixels[at + 3]!);
      colours.add(colour.pixels.subarray(at, at + 3).toString('hex'));
    }
    expect([...alphas]).toEqual([255]);
    // The accent colour fills the corners; the symbol is white.
    const manifest = JSON.parse(strFromU8(files['manifest.json']!)) as { accentColor: string };
    expect(colour.pixels.subarray(0, 3).toString('hex')).toBe(
      manifest.accentColor.slice(1).toLowerCase(),
    );
    expect(colours.has('ffffff')).toBe(true);

    const lines = decodePng(outline);
    expect(lines.colourType).toBe(6);
    let opaque = 0;
    for (let at = 0; at < lines.pixels.length; at += 4) {
      expect(lines.pixels.subarray(at, at + 3).toString('hex')).toBe('ffffff');
      if (lines.pixels[at + 3] === 255) opaque += 1;
    }
    expect(lines.pixels[3]).toBe(0);
    expect(opaque).toBeGreaterThan(50);
    expect(opaque).toBeLessThan(32 * 32 * 0.5);
  });

  it('refuses without an https public address, saying why in the user’s language', async () => {
    const local = await appAt('http://127.0.0.1:8080');
    const response = await download(await companyWith(local, APP_ID), 'it');
    expect(response.statusCode).toBe(409);
    expect(response.json.error.message).toBe(
      'Teams raggiunge il suo bot solo a un indirizzo https, e l’indirizzo pubblico di questo server (CCP_PUBLIC_URL) non lo è: chiedi a chi gestisce il server di impostarne l’indirizzo https, poi scarica il pacchetto dell’app.',
    );
  });

  it('refuses until the bot’s app id (a GUID) is saved', async () => {
    for (const appId of [null, 'my-teams-bot']) {
      const response = await download(await companyWith(app, appId), 'de');
      expect(response.statusCode).toBe(409);
      expect(response.json.error.message).toBe(
        'Speichern Sie zuerst die Teams-Verbindung mit der Anwendungs-ID (Client) des Bots (eine GUID wie 3f2b6c1e-8a4d-4e59-9b1a-2c7d5e8f9a01): Das App-Paket nennt sie als seinen Bot.',
      );
    }
  });

  it('is for administrators only', async () => {
    const member = await createUser(app, connected.company, { isAdmin: false });
    const response = await call(app, {
      method: 'GET',
      url: PACKAGE,
      headers: { authorization: `Bearer ${(await signIn(app, member)).access_token}` },
    });
    expect(response.statusCode).toBe(403);
  });

  it('is offered by the Teams setup guide, to download from the API', async () => {
    const response = await call(app, {
      method: 'GET',
      url: '/api/v1/channel-connections/ms-teams/setup',
      headers: (await companyWith(app, null)).headers,
    });
    expect(response.json.data.downloads).toEqual([
      {
        key: 'teams_app_package',
        file_name: 'ccp-teams-app.zip',
        media_type: 'application/zip',
        path: PACKAGE,
      },
    ]);
  });
});
