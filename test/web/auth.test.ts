/**
 * The web UI against a service with AUTH_MODE=apikey: it asks for a key when the API answers 401,
 * keeps it for the session, and asks again when a key lacks the scope an action needs.
 */
import { expect } from 'chai';
import type { Browser, Dialog } from 'playwright-core';
import { build, wipe, type TestApp } from '../helper.js';
import { buildWebUi, chromiumPath, launchChromium } from '../support/browser.js';
import { generateKey, keyEntry, parseKeys } from '../../src/auth/keys.js';

describe('web UI with API keys', function () {
  this.timeout(120_000);
  let t: TestApp;
  let browser: Browser;
  const reader = generateKey();
  const admin = generateKey();

  before(async function () {
    if (!chromiumPath()) {
      console.log(
        '    SKIPPED: no Chromium on this machine (apt-get install chromium, or set CHROMIUM_PATH); .ci/run ' +
          'installs it',
      );
      this.skip();
    }
    const keys = parseKeys(
      [keyEntry('reader', reader, ['read'], null), keyEntry('admin', admin, ['admin'], null)].join('\n'),
      'test',
    );
    t = await build({ webRoot: await buildWebUi(), auth: { mode: 'apikey', keys, metricsPublic: false } });
    await wipe(t.db);
    await t.app.services.namespaces.ensureDefault();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('asks for a key on the first 401, keeps it for the session, and shows the data', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('dialog', (dialog: Dialog) => {
      asked.push(dialog.message());
      void dialog.accept(reader);
    });
    await page.goto(`${t.baseUrl}/`, { waitUntil: 'domcontentloaded' });
    await page.getByRole('link', { name: 'default' }).first().waitFor({ timeout: 30_000 });
    expect(asked).to.have.length(1);
    expect(asked[0]).to.match(/API key/);
    expect(
      await page.evaluate(() =>
        (globalThis as unknown as { sessionStorage: { getItem(k: string): string | null } }).sessionStorage.getItem(
          'lineage.apiKey',
        ),
      ),
    ).to.equal(reader);
    // Another page of the same session: no question.
    await page.goto(`${t.baseUrl}/namespaces/default`, { waitUntil: 'domcontentloaded' });
    await page.waitForTimeout(1500);
    expect(asked).to.have.length(1);
    await context.close();
  });

  it('a new session asks again; a wrong key is asked for again and then refused', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const asked: string[] = [];
    page.on('dialog', (dialog: Dialog) => {
      asked.push(dialog.message());
      void dialog.accept(asked.length === 1 ? 'lgs_wrong' : '');
    });
    await page.goto(`${t.baseUrl}/`, { waitUntil: 'domcontentloaded' });
    await page
      .getByText(/not valid/)
      .first()
      .waitFor({ timeout: 30_000 });
    expect(asked[0]).to.match(/needs an API key/);
    // The wrong key is kept until replaced: the next load asks, saying why.
    await page.reload({ waitUntil: 'domcontentloaded' });
    await page
      .getByText(/not valid/)
      .first()
      .waitFor({ timeout: 30_000 });
    expect(asked.length).to.equal(2);
    expect(asked[1]).to.match(/not valid/);
    await context.close();
  });
});
