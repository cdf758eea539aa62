/** /api/docs in Chromium: the bundled Swagger UI renders the service's document, offline, under its CSP. */
import path from 'node:path';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { build, type TestApp } from '../helper.js';
import { chromiumPath, launchChromium, outputDir } from '../support/browser.js';

describe('API docs page in Chromium', function () {
  this.timeout(120_000);
  let t: TestApp;
  let browser: Browser;

  before(async function () {
    if (!chromiumPath()) {
      console.log(
        '    SKIPPED: no Chromium on this machine (apt-get install chromium, or set CHROMIUM_PATH); .ci/run ' +
          'installs it',
      );
      this.skip();
    }
    t = await build();
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('shows every tag and operation of the document, with no error and no request elsewhere', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    const foreign: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('request', (req) => {
      if (!req.url().startsWith(t.baseUrl) && !req.url().startsWith('data:')) foreign.push(req.url());
    });
    await page.goto(`${t.baseUrl}/api/docs`, { waitUntil: 'domcontentloaded' });
    await page.getByText('List namespaces').first().waitFor({ timeout: 60_000 });
    expect(await page.getByText('Legacy write API').count()).to.be.greaterThan(0);
    expect(await page.locator('.opblock').count()).to.equal(
      Object.values(t.app.openapi().paths).reduce((n, m) => n + Object.keys(m).length, 0),
    );
    await page.screenshot({ path: path.join(outputDir('screenshots'), 'api-docs.png') });
    expect(errors).to.deep.equal([]);
    expect(foreign).to.deep.equal([]);
    await page.close();
  });
});
