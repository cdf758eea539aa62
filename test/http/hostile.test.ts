import { expect } from 'chai';
import { useTestApp } from '../helper.js';
import { graphShape } from '../support/graph.js';
import { answerProblems, hostileSample, send } from '../support/hostile.js';

/**
 * The hostile corpus (test/support/hostile.ts), a sample of a few hundred cases: every hand-written
 * one (broken shapes and limits, transport tricks, read parameters, methods, state-changing routes)
 * and a seeded sample of field mutations. `npm run fuzz` runs all of them. The rule: an answer
 * below 500 with a JSON error body, and nothing written for a rejected event.
 */
describe('hostile requests (sample; npm run fuzz runs the whole corpus)', () => {
  const t = useTestApp();

  for (const c of hostileSample()) {
    it(c.name.slice(0, 140), async () => {
      const before = c.ingest ? await graphShape(t().db) : null;
      const a = await send(t().baseUrl, c);
      expect(
        answerProblems(c, a),
        `${c.method} ${c.path.slice(0, 120)} → ${a.status} ${a.text.slice(0, 300)}`,
      ).to.deep.equal([]);
      const nothingStored =
        a.status >= 400 ||
        (a.status === 200 && c.path.endsWith('/batch') && JSON.parse(a.text).summary?.successful === 0);
      if (before && nothingStored)
        expect(await graphShape(t().db), 'a rejected event writes nothing').to.deep.equal(before);
    });
  }
});
