/**
 * Other clients' work on the service's Neo4j database, as the idle warm-up (src/ingest/warm-up.ts)
 * needs to know it: the warm-up sees this process's own producers and readers, but not another replica
 * of the service, a loader or an engineer's query on the same database, and its rehearsals would take
 * Neo4j's CPU from them (bench:ingest-ab showed it: one side's rehearsals ran during the other's rounds).
 */
import { type Db, REHEARSAL_OP } from './db.js';

const OWN_OP = 'warm-up/others-running';

export class Neo4jActivity {
  private unreadable = false;

  constructor(private readonly db: Db) {}

  /**
   * Whether another client has a transaction open on the database now (rehearsals, this service's or
   * another replica's, not counted). False when Neo4j cannot say: the warm-up then goes by the
   * service's own activity, as it did before.
   */
  async othersRunning(): Promise<boolean> {
    if (this.unreadable) return false;
    try {
      const { records } = await this.db.query(
        OWN_OP,
        { database: this.db.database, ignoredOps: [OWN_OP, REHEARSAL_OP] },
        2000,
      );
      return records[0].get('running').toNumber() > 0;
    } catch (err) {
      // A server that refuses SHOW TRANSACTIONS refuses it every time; an outage ends the warm-up anyway.
      if ((err as { code?: string }).code?.startsWith('Neo.ClientError.')) this.unreadable = true;
      return false;
    }
  }
}
