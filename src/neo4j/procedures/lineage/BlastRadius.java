package lineage;

import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.temporal.ChronoField;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.neo4j.graphdb.Direction;
import org.neo4j.graphdb.Label;
import org.neo4j.graphdb.Node;
import org.neo4j.graphdb.Relationship;
import org.neo4j.graphdb.RelationshipType;
import org.neo4j.graphdb.ResourceIterator;
import org.neo4j.graphdb.Transaction;
import org.neo4j.graphdb.schema.IndexDefinition;
import org.neo4j.graphdb.schema.IndexType;
import org.neo4j.procedure.Context;
import org.neo4j.procedure.Description;
import org.neo4j.procedure.Mode;
import org.neo4j.procedure.Name;
import org.neo4j.procedure.Procedure;
import org.neo4j.procedure.TerminationGuard;

/**
 * The whole blast radius: Reach's walk, then the grouping, summary, cut and rendering that
 * cypher/impact/blast-radius.cypher does, in the records it returns. In Cypher those steps cost as much as
 * the walk on a big answer (a map per node reached, a collect, property reads row by row in the slotted
 * runtime); here they are a pass over a list. At a point in time a job's state is that of its latest run
 * then: its LATEST_RUN when that had started by then, else the latest of its runs up to then, read from
 * its RUN_OF relationships where it has few runs and from the index run_job_sort_order (one entry, through
 * Cypher) where it has many, so the cost does not grow with a job's history.
 */
public class BlastRadius {
  private static final Label JOB = Label.label("Job");
  private static final RelationshipType TAGGED = RelationshipType.withName("TAGGED");
  private static final RelationshipType LATEST_RUN = RelationshipType.withName("LATEST_RUN");
  private static final RelationshipType RUN_OF = RelationshipType.withName("RUN_OF");
  private static final Label RUN = Label.label("Run");
  /** Up to this many runs a job's runs are read from its relationships; past it, from the index. */
  private static final int RUNS_READ_DIRECTLY = 64;
  /** The latest run of a job up to a time, by the index (cypher/impact/blast-radius.cypher's lookup). */
  private static final String LATEST_RUN_AT =
      "MATCH (r:Run) USING INDEX SEEK r:Run(jobNamespace, jobName, sortTime, id) WHERE r.jobNamespace = $namespace"
          + " AND r.jobName = $name AND r.sortTime <= $asOf AND r.id IS NOT NULL"
          + " RETURN r ORDER BY r.jobNamespace DESC, r.jobName DESC, r.sortTime DESC, r.id DESC LIMIT 1";

  @Context public TerminationGuard guard;
  @Context public Transaction tx;

  /** One record: up to `chunk` nodes of one distance and type. */
  public static class Chunk {
    public boolean isJob;
    public long distance;
    /** Nodes reached, the start excluded: on the first record only. */
    public Long total;
    /** [[distance, isJob, nodes, jobs whose latest run is FAILED]]: on the first record only. */
    public List<Object> counts;
    /** [[namespace, name, state, endedAt (epoch ms), key, preds (keys), tags, owner]] */
    public List<Object> nodes;

    Chunk(boolean isJob, long distance, Long total, List<Object> counts, List<Object> nodes) {
      this.isJob = isJob;
      this.distance = distance;
      this.total = total;
      this.counts = counts;
      this.nodes = nodes;
    }
  }

  /** The reached nodes of one distance and type, with the state each job's latest run is in. */
  private static final class Group {
    final long distance;
    final boolean isJob;
    final List<Reach.Step> members = new ArrayList<>();
    final List<String> states = new ArrayList<>();
    /** At a point in time: the end of each job's run then (epoch ms), or null. */
    final List<Long> ends = new ArrayList<>();
    long failed;

    Group(long distance, boolean isJob) {
      this.distance = distance;
      this.isJob = isJob;
    }
  }

  @Procedure(name = "lineage.blastRadius", mode = Mode.READ)
  @Description(
      "lineage.blastRadius(rules, start, downstream, maxRels, pointInTime, asOf, windowStart, rows, state, chunk): "
          + "the blast radius of start, as the records of cypher/impact/blast-radius.cypher")
  public Stream<Chunk> blastRadius(
      @Name("rules") String rules,
      @Name("start") Node start,
      @Name("downstream") boolean downstream,
      @Name("maxRels") long maxRels,
      @Name("pointInTime") boolean pointInTime,
      @Name("asOf") ZonedDateTime asOf,
      @Name("windowStart") ZonedDateTime windowStart,
      @Name("rows") long rows,
      @Name("state") String state,
      @Name("chunk") long chunk) {
    Reach.checkRules(rules);
    if (chunk < 1) throw new IllegalArgumentException("chunk must be positive, not " + chunk);
    List<Reach.Step> reached = Reach.walk(guard, start, downstream, maxRels, pointInTime, asOf, windowStart);

    // Groups in (distance, isJob) order, false before true as Cypher sorts booleans. The walk yields
    // distances in order; within one a layer holds datasets or jobs (the graph is bipartite) but either
    // is kept apart in case it is not.
    List<Group> groups = new ArrayList<>();
    int i = 0;
    while (i < reached.size()) {
      long distance = reached.get(i).distance;
      Group datasets = new Group(distance, false);
      Group jobs = new Group(distance, true);
      for (; i < reached.size() && reached.get(i).distance == distance; i++) {
        Reach.Step r = reached.get(i);
        boolean isJob = r.node.hasLabel(JOB);
        Group g = isJob ? jobs : datasets;
        String s = null;
        if (isJob && pointInTime) {
          guard.check();
          Node run = runAt(r.node, asOf);
          s = stateAt(run, asOf);
          Object ended = run == null ? null : run.getProperty("endedAt", null);
          g.ends.add(notAfter(ended, asOf) ? epochMillis(ended) : null);
        } else {
          if (isJob) s = stringOrNull(r.node.getProperty("latestRunState", null));
          g.ends.add(null);
        }
        g.members.add(r);
        g.states.add(s);
        if ("FAILED".equals(s)) g.failed++;
      }
      if (!datasets.members.isEmpty()) groups.add(datasets);
      if (!jobs.members.isEmpty()) groups.add(jobs);
    }

    List<Object> counts = new ArrayList<>();
    long total = 0;
    for (Group g : groups) {
      if (g.distance == 0) continue;
      counts.add(Arrays.asList(g.distance, g.isJob, (long) g.members.size(), g.failed));
      total += g.members.size();
    }
    // Every group up to the distance of the rows-th nearest node (the service orders ties and keeps rows).
    long seen = 0;
    long cut = -1;
    for (Group g : groups) {
      if (seen >= rows) break;
      seen += g.members.size();
      cut = g.distance;
    }

    long rendered = 0;
    for (Group g : groups) if (g.distance <= cut) rendered += g.members.size();
    Map<Long, List<Object>> tags = tagsFromTheirSide(rendered);

    // Each record is rendered when Neo4j pulls it, so that the first records are on their way to the
    // service (which turns them into its answer meanwhile, on the other core) while the next are read.
    int step = (int) Math.min(chunk, Integer.MAX_VALUE);
    long cutAt = cut;
    long totalReached = total;
    return groups.stream()
        .filter(g -> g.distance <= cutAt)
        .flatMap(g -> IntStream.iterate(0, from -> from < g.members.size(), from -> from + step)
            .mapToObj(from -> {
              guard.check();
              int to = (int) Math.min(g.members.size(), (long) from + step);
              List<Object> nodes = new ArrayList<>(to - from);
              for (int m = from; m < to; m++) nodes.add(render(g, m, state, tags, pointInTime));
              // The first record is the start's (distance 0, alone in its group).
              boolean first = g.distance == 0 && from == 0;
              return new Chunk(g.isJob, g.distance, first ? totalReached : null, first ? counts : null, nodes);
            }));
  }

  /**
   * The tags of the nodes to render, read from the TAGGED relationships' side (the relationship type
   * index) when there are fewer of those than four per node rendered; else null, and each node's own
   * relationships are read. A node's relationships are one chain unless it has more than 50: finding its
   * TAGGED among them reads them all (a third of the hub's answer, where tags are rare), while the
   * type index holds the TAGGED ones only. The service sorts each node's tags, so either order is right.
   */
  @SuppressWarnings("removal")
  private Map<Long, List<Object>> tagsFromTheirSide(long rendered) {
    // Without the type index (dropped on a server of your own) finding them would scan every relationship.
    if (!hasRelationshipTypeIndex()) return null;
    long budget = 4 * rendered;
    long read = 0;
    // By tagged node: render looks up only the nodes it renders.
    Map<Long, List<Object>> tags = new HashMap<>();
    try (ResourceIterator<Relationship> it = tx.findRelationships(TAGGED)) {
      while (it.hasNext()) {
        if (read++ >= budget) return null;
        Relationship t = it.next();
        tags.computeIfAbsent(t.getStartNodeId(), k -> new ArrayList<>(2)).add(t.getEndNode().getProperty("name", null));
      }
    }
    return tags;
  }

  private boolean hasRelationshipTypeIndex() {
    for (IndexDefinition index : tx.schema().getIndexes())
      if (index.getIndexType() == IndexType.LOOKUP && index.isRelationshipIndex()) return true;
    return false;
  }

  /** One node as blast-radius.cypher renders it; tags and owner null for a job not in the state asked. */
  @SuppressWarnings("removal")
  private static List<Object> render(
      Group g, int m, String state, Map<Long, List<Object>> tagsOf, boolean pointInTime) {
    Reach.Step r = g.members.get(m);
    Node n = r.node;
    String s = g.states.get(m);
    boolean described = state == null || state.equals(s) || g.distance == 0;
    List<Object> tags = null;
    if (described && tagsOf != null) {
      tags = tagsOf.get(n.getId());
      if (tags == null) tags = List.of();
    } else if (described) {
      tags = new ArrayList<>();
      for (Relationship t : n.getRelationships(Direction.OUTGOING, TAGGED))
        tags.add(t.getEndNode().getProperty("name", null));
    }
    return Arrays.asList(
        n.getProperty("namespace", null),
        n.getProperty("name", null),
        s,
        !g.isJob ? null : pointInTime ? g.ends.get(m) : epochMillis(n.getProperty("latestRunEndedAt", null)),
        key(r.index),
        keys(r.preds),
        tags,
        described ? n.getProperty("facet.ownership", null) : null);
  }

  /**
   * A node's key within one answer, for the service to match predecessors by (it needs no more): its
   * position in the walk, in base 36. Where elementIds were 45 characters each (and again in each
   * predecessor list), built by Neo4j and hashed by the service, these are 1-4.
   */
  private static String key(int index) {
    return Integer.toString(index, 36);
  }

  private static List<String> keys(List<Reach.Step> steps) {
    List<String> out = new ArrayList<>(steps.size());
    for (Reach.Step s : steps) out.add(key(s.index));
    return out;
  }

  /**
   * A job's latest run as of asOf (blast-radius.cypher's): its LATEST_RUN if that sorts at or before asOf,
   * else the run with the greatest (sortTime, id) up to asOf; null without a LATEST_RUN.
   */
  private Node runAt(Node job, ZonedDateTime asOf) {
    Node latest = null;
    for (Relationship l : job.getRelationships(Direction.OUTGOING, LATEST_RUN)) {
      Node x = l.getEndNode();
      if (x.hasLabel(RUN)) {
        latest = x;
        break;
      }
    }
    if (latest == null) return null;
    Object sort = latest.getProperty("sortTime", null);
    if (!(sort instanceof ZonedDateTime t)) return null;
    if (!t.isAfter(asOf)) return latest;
    Object namespace = job.getProperty("namespace", null);
    Object name = job.getProperty("name", null);
    if (namespace == null || name == null) return null;
    if (job.getDegree(RUN_OF, Direction.INCOMING) > RUNS_READ_DIRECTLY) {
      try (var result = tx.execute(LATEST_RUN_AT, Map.of("namespace", namespace, "name", name, "asOf", asOf))) {
        return result.hasNext() ? (Node) result.next().get("r") : null;
      }
    }
    // The index's runs are those whose jobNamespace and jobName are the job's (the mirrors of RUN_OF).
    Node best = null;
    ZonedDateTime bestTime = null;
    String bestId = null;
    for (Relationship of : job.getRelationships(Direction.INCOMING, RUN_OF)) {
      Node r = of.getStartNode();
      if (!r.hasLabel(RUN)) continue;
      if (!(r.getProperty("sortTime", null) instanceof ZonedDateTime rt) || rt.isAfter(asOf)) continue;
      if (!(r.getProperty("id", null) instanceof String id)) continue;
      if (!namespace.equals(r.getProperty("jobNamespace", null)) || !name.equals(r.getProperty("jobName", null)))
        continue;
      // Run ids are UUIDs (ASCII), where String order is Cypher's.
      int byTime = bestTime == null ? 1 : rt.toInstant().compareTo(bestTime.toInstant());
      if (byTime > 0 || (byTime == 0 && id.compareTo(bestId) > 0)) {
        best = r;
        bestTime = rt;
        bestId = id;
      }
    }
    return best;
  }

  /** A run's state as of asOf: its own once it ended, RUNNING once it started, else NEW; null without a run. */
  private static String stateAt(Node run, ZonedDateTime asOf) {
    if (run == null) return null;
    if (notAfter(run.getProperty("endedAt", null), asOf)) return stringOrNull(run.getProperty("state", null));
    if (notAfter(run.getProperty("startedAt", null), asOf)) return "RUNNING";
    return "NEW";
  }

  /** Cypher's `t <= asOf` for a stored time: false when it is missing or not a DateTime. */
  private static boolean notAfter(Object t, ZonedDateTime asOf) {
    return t instanceof ZonedDateTime z && !z.isAfter(asOf);
  }

  private static String stringOrNull(Object value) {
    return value instanceof String s ? s : null;
  }

  /** A stored instant as epoch milliseconds (what the service reads a time from), else null. */
  private static Long epochMillis(Object value) {
    if (value instanceof ZonedDateTime t) return t.toInstant().toEpochMilli();
    if (value instanceof TemporalAccessor t && t.isSupported(ChronoField.INSTANT_SECONDS))
      return Instant.from(t).toEpochMilli();
    return null;
  }
}
