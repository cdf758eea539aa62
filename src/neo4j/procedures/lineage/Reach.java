package lineage;

import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Relationship;
import org.neo4j.graphdb.RelationshipType;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;
import org.neo4j.procedure.TerminationGuard;

/**
 * The lineage walk of the blast radius (cypher/impact/blast-radius.cypher) as a breadth-first search in
 * the database: every job and dataset reachable from a start node over INPUT_TO / PRODUCES edges in
 * view, each once, at its shortest distance, with the nodes one step nearer that reach it through an
 * edge in view. The edge and node rules are graph.cypher's, evaluated on the same stored values
 * (docs/lineage.md "Time"); test/neo4j/local/procedures.test.ts compares the two on stored histories.
 */
public class Reach {
  private static final RelationshipType INPUT_TO = RelationshipType.withName("INPUT_TO");
  private static final RelationshipType PRODUCES = RelationshipType.withName("PRODUCES");
  private static final Label DELETED = Label.label("Deleted");

  /**
   * The edition of the walk's rules this jar implements. The service passes the edition it expects
   * (src/store/impact.ts, REACH_RULES) and a jar of another edition refuses the call, so that a jar left
   * on a server from an older or newer release never answers by other rules: the service then walks in
   * Cypher. Change both together whenever the rules or the answer change.
   */
  public static final String RULES = "2026-12-01";

  /** Ends the walk when its transaction is terminated (a timeout, a client gone, an operator). */
  @Context public TerminationGuard guard;

  /** One reached node, as lineage.reach yields it. */
  public static class Reached {
    public Node node;
    public long distance;
    /** elementIds of the nodes at distance - 1 with an edge in view to this one. */
    public List<String> preds;

    Reached(Node node, long distance, List<String> preds) {
      this.node = node;
      this.distance = distance;
      this.preds = preds;
    }
  }

  /** One node of the walk: its position in the walk's order, and its predecessors one step nearer. */
  static final class Step {
    final Node node;
    final long distance;
    final int index;
    final List<Step> preds;
    private String elementId;

    Step(Node node, long distance, int index, List<Step> preds) {
      this.node = node;
      this.distance = distance;
      this.index = index;
      this.preds = preds;
    }

    String elementId() {
      if (elementId == null) elementId = node.getElementId();
      return elementId;
    }
  }

  @Procedure(name = "lineage.reach", mode = Mode.READ)
  @Description(
      "lineage.reach(rules, start, downstream, maxRels, pointInTime, asOf, windowStart): every node reachable "
          + "from start over INPUT_TO/PRODUCES edges in view, in distance order, with its distance and the "
          + "elementIds of its predecessors one step nearer")
  public Stream<Reached> reach(
      @Name("rules") String rules,
      @Name("start") Node start,
      @Name("downstream") boolean downstream,
      @Name("maxRels") long maxRels,
      @Name("pointInTime") boolean pointInTime,
      @Name("asOf") ZonedDateTime asOf,
      @Name("windowStart") ZonedDateTime windowStart) {
    checkRules(rules);
    return walk(guard, start, downstream, maxRels, pointInTime, asOf, windowStart).stream()
        .map(s -> new Reached(s.node, s.distance, s.preds.stream().map(Step::elementId).toList()));
  }

  /** Refuses a caller that expects another edition of the rules. */
  static void checkRules(String rules) {
    if (!RULES.equals(rules))
      throw new IllegalArgumentException(
          "lineage procedures implement the rules of " + RULES + ", the caller expects " + rules
              + ": install the procedures jar of the service's release");
  }

  /**
   * The breadth-first walk: every node in view reached from start, in distance order, start first. Nodes
   * are keyed by their internal id, a long, for the walk's own bookkeeping only: an elementId is a string
   * to build and hash per relationship. (Deprecated for use across transactions, not within one.)
   */
  @SuppressWarnings("removal")
  static List<Step> walk(
      TerminationGuard guard,
      Node start,
      boolean downstream,
      long maxRels,
      boolean pointInTime,
      ZonedDateTime asOf,
      ZonedDateTime windowStart) {
    Direction direction = downstream ? Direction.OUTGOING : Direction.INCOMING;
    Map<Long, Step> seen = new HashMap<>();
    List<Step> order = new ArrayList<>();
    Step first = new Step(start, 0, 0, List.of());
    seen.put(start.getId(), first);
    order.add(first);
    List<Step> layer = List.of(first);
    for (long distance = 1; distance <= maxRels && !layer.isEmpty(); distance++) {
      List<Step> next = new ArrayList<>();
      for (Step from : layer) {
        guard.check();
        for (Relationship e : from.node.getRelationships(direction, INPUT_TO, PRODUCES)) {
          if (!edgeInView(e, pointInTime, asOf, windowStart)) continue;
          Node x = e.getOtherNode(from.node);
          Step known = seen.get(x.getId());
          if (known == null) {
            if (!nodeInView(x, pointInTime, asOf)) {
              // Out of view: remembered as such so that its rule is evaluated once.
              seen.put(x.getId(), OUT_OF_VIEW);
              continue;
            }
            known = new Step(x, distance, order.size() + next.size(), new ArrayList<>(2));
            seen.put(x.getId(), known);
            next.add(known);
          }
          // A node's edges are read together, so a predecessor met again (two edges) is the last one added.
          if (known.distance == distance && (known.preds.isEmpty() || known.preds.get(known.preds.size() - 1) != from))
            known.preds.add(from);
        }
      }
      order.addAll(next);
      layer = next;
    }
    return order;
  }

  private static final Step OUT_OF_VIEW = new Step(null, -1, -1, List.of());

  /** graph.cypher's edge rule: observed within the window, or still held, at asOf. */
  static boolean edgeInView(Relationship e, boolean pointInTime, ZonedDateTime asOf, ZonedDateTime windowStart) {
    if (!pointInTime) {
      // `current` first: most edges in view are still held, and it comes before lastSeenAt in the edge's
      // property chain as ingestion writes it, with no DateTime to decode (the hub's walk 97 against 110 ms).
      if (Boolean.TRUE.equals(e.getProperty("current", null))) return true;
      Object last = e.getProperty("lastSeenAt", null);
      return last instanceof ZonedDateTime t && !t.isBefore(windowStart);
    }
    Object firstSeen = e.getProperty("firstSeenAt", null);
    if (!(firstSeen instanceof ZonedDateTime f) || f.isAfter(asOf)) return false;
    Object from = e.getProperty("seenFrom", null);
    Object to = e.getProperty("seenTo", null);
    Object held = e.getProperty("heldUntil", null);
    if (!(from instanceof ZonedDateTime[] seenFrom)) return false;
    ZonedDateTime[] seenTo = to instanceof ZonedDateTime[] a ? a : new ZonedDateTime[0];
    ZonedDateTime[] heldUntil = held instanceof ZonedDateTime[] b ? b : new ZonedDateTime[0];
    for (int i = 0; i < seenFrom.length; i++) {
      if (seenFrom[i].isAfter(asOf)) continue;
      if (i < seenTo.length && !seenTo[i].isBefore(windowStart)) return true;
      if (i < heldUntil.length && heldUntil[i].isAfter(asOf)) return true;
    }
    return false;
  }

  /** graph.cypher's node rule: existed at asOf and not soft-deleted by then. */
  static boolean nodeInView(Node x, boolean pointInTime, ZonedDateTime asOf) {
    if (!pointInTime) return !x.hasLabel(DELETED);
    Object created = x.getProperty("createdAt", null);
    if (!(created instanceof ZonedDateTime c) || c.isAfter(asOf)) return false;
    if (!Boolean.TRUE.equals(x.getProperty("isDeleted", null))) return true;
    Object deleted = x.getProperty("deletedAt", null);
    ZonedDateTime at = deleted instanceof ZonedDateTime d ? d : c;
    return at.isAfter(asOf);
  }
}
