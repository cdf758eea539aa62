import { expect } from 'chai';
import { RecentPeak, startThreshold } from '../../src/ingest/batch-size.js';

describe('ingest batch size', () => {
  describe('RecentPeak', () => {
    let now = 0;
    const clock = () => now;
    beforeEach(() => (now = 0));

    it('is the largest value recorded in the current window', () => {
      const peak = new RecentPeak(1000, clock);
      for (const v of [3, 30, 12]) peak.record(v);
      expect(peak.value).to.equal(30);
    });

    it('remembers the previous window, so a peak is kept for one to two windows', () => {
      const peak = new RecentPeak(1000, clock);
      peak.record(30);
      now = 1500;
      peak.record(4);
      expect(peak.value).to.equal(30);
      now = 2600;
      peak.record(5);
      expect(peak.value, 'the window holding 30 has passed').to.equal(5);
    });

    it('forgets everything after two windows without a record (the load stopped)', () => {
      const peak = new RecentPeak(1000, clock);
      peak.record(30);
      now = 2500;
      expect(peak.value).to.equal(0);
      peak.record(1);
      expect(peak.value).to.equal(1);
    });
  });

  describe('startThreshold', () => {
    const base = { writers: 2, minBatch: 16, maxBatch: 32 };

    it('shares the recent peak between the writers: 32 producers → 16, 8 → 4', () => {
      expect(startThreshold({ ...base, recentPeak: 32 })).to.equal(16);
      expect(startThreshold({ ...base, recentPeak: 8 })).to.equal(4);
      expect(startThreshold({ ...base, recentPeak: 7 })).to.equal(4);
    });

    it('never asks for more than minBatch or maxBatch, nor fewer than 1', () => {
      expect(startThreshold({ ...base, recentPeak: 200 })).to.equal(16);
      expect(startThreshold({ ...base, minBatch: 64, maxBatch: 10, recentPeak: 200 })).to.equal(10);
      expect(startThreshold({ ...base, recentPeak: 0 })).to.equal(1);
      expect(startThreshold({ ...base, writers: 0, recentPeak: 0 })).to.equal(1);
    });

    it('does not follow the busy writer down: 32 producers still wait for 16 after a small transaction', () => {
      // The rule it replaces capped the threshold at the busy writer's events (here 5), and kept it there.
      expect(startThreshold({ ...base, recentPeak: 31 })).to.equal(16);
    });
  });
});
