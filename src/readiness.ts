/**
 * Start-up work after which the service serves at its normal speed (planning the ingest statements
 * on a cold Neo4j takes seconds). Until it has settled, /readyz answers 503, so an orchestrator or
 * load balancer holds producers back instead of letting their first requests stall; /healthz
 * (liveness) is unaffected. A failed warm-up only costs speed, so it settles readiness too.
 */
export class Readiness {
  private readonly pending = new Set<string>();

  /** Not ready until `work` settles, fulfilled or rejected; `what` names it in /readyz's answer. */
  waitFor(what: string, work: Promise<unknown>): void {
    this.pending.add(what);
    work.then(
      () => this.pending.delete(what),
      () => this.pending.delete(what),
    );
  }

  /** The start-up work still running, by name. */
  get warmingUp(): string[] {
    return [...this.pending];
  }
}
