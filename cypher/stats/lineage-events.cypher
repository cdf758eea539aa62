// Stored lineage events per time bucket (by eventTime), counted by event type.
// Params: $period ('DAY': the last 24 hours in hourly buckets, the current hour last | 'WEEK': the last 7 days
//   in daily buckets, today last), $timezone (zone id such as 'UTC' or 'Europe/Paris': where hours and days begin),
//   $now (ISO-8601 string).
// Returns one row per bucket, oldest first (bucket bounds in UTC): {startInterval, endInterval, start, running,
// complete, fail, abort, other}.
WITH datetime({datetime: datetime($now), timezone: $timezone}) AS now
WITH CASE WHEN $period = 'DAY'
       THEN [i IN range(23, 0, -1) | datetime.truncate('hour', now) - duration({hours: i})]
       ELSE [i IN range(6, 0, -1) | datetime.truncate('day', now) - duration({days: i})] END AS starts,
     CASE WHEN $period = 'DAY' THEN duration({hours: 1}) ELSE duration({days: 1}) END AS step
// Bounds as UTC instants: Neo4j orders a named-zone time after an offset time at the same instant, so a
// stored time (always UTC, 'Z') exactly at a bucket's start would otherwise count in the bucket before.
WITH [s IN starts | {start: datetime({epochMillis: s.epochMillis}),
  end: datetime({epochMillis: (s + step).epochMillis})}] AS buckets
UNWIND buckets AS b
CALL (b) {
  MATCH (e:LineageEvent) WHERE e.eventTime >= b.start AND e.eventTime < b.end
  RETURN count(CASE WHEN e.eventType = 'START' THEN 1 END) AS start,
         count(CASE WHEN e.eventType = 'RUNNING' THEN 1 END) AS running,
         count(CASE WHEN e.eventType = 'COMPLETE' THEN 1 END) AS complete,
         count(CASE WHEN e.eventType = 'FAIL' THEN 1 END) AS fail,
         count(CASE WHEN e.eventType = 'ABORT' THEN 1 END) AS abort,
         count(CASE WHEN e.eventType IS NULL OR NOT e.eventType IN ['START', 'RUNNING', 'COMPLETE', 'FAIL',
           'ABORT'] THEN 1 END) AS other
}
RETURN b.start AS startInterval, b.end AS endInterval, start, running, complete, fail, abort, other
ORDER BY startInterval
