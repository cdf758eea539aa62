/** The UI's API client: when a read answered 503 is asked again (web/src/api/retry.ts). */
import { expect } from 'chai';
import { READ_RETRIES, retryDelayMs } from '../../web/src/api/retry.js';

describe('web API client: reads retried on 503', () => {
  it('waits the Retry-After the service sent, 1 s when absent or unreadable, at most 5 s', () => {
    expect(retryDelayMs(503, '1', 0)).to.equal(1000);
    expect(retryDelayMs(503, '2', 1)).to.equal(2000);
    expect(retryDelayMs(503, null, 0)).to.equal(1000);
    expect(retryDelayMs(503, 'Wed, 21 Oct 2026 07:28:00 GMT', 0)).to.equal(1000);
    expect(retryDelayMs(503, '0', 0)).to.equal(1000);
    expect(retryDelayMs(503, '120', 0)).to.equal(5000);
  });

  it(`gives up after ${READ_RETRIES} retries, and never retries another status`, () => {
    expect(retryDelayMs(503, '1', READ_RETRIES)).to.equal(null);
    for (const status of [200, 400, 404, 429, 500, 504]) expect(retryDelayMs(status, '1', 0)).to.equal(null);
  });
});
