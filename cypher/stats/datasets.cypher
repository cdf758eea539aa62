// Cumulative number of live datasets (symlink aliases not counted) created by the end of each time bucket (by
// createdAt).
// Params: $period ('DAY': the last 24 hours in hourly buckets, the current hour last | 'WEEK': the last 7 days
//   in daily buckets, today last), $timezone (zone id such as 'UTC' or 'Europe/Paris': where hours and days begin),
//   $now (ISO-8601 string).
// Returns one row per bucket, oldest first (bucket bounds in UTC): {startInterval, endInterval, count}.
WITH datetime({datetime: datetime($now), timezone: $timezone}) AS now
WITH CASE WHEN $period = 'DAY'
       THEN [i IN range(23, 0, -1) | datetime.truncate('hour', now) - duration({hours: i})]
       ELSE [i IN range(6, 0, -1) | datetime.truncate('day', now) - duration({days: i})] END AS starts,
     CASE WHEN $period = 'DAY' THEN duration({hours: 1}) ELSE duration({days: 1}) END AS step
// Bounds as UTC instants: Neo4j orders a named-zone time after an offset time at the same instant, so a
// stored time (always UTC, 'Z') exactly at a bucket's start would otherwise count in the bucket before.
WITH [s IN starts | {start: datetime({epochMillis: s.epochMillis}),
  end: datetime({epochMillis: (s + step).epochMillis})}] AS buckets
CALL (buckets) {
  MATCH (n:Dataset) WHERE NOT n.isDeleted AND n.isAlias IS NULL
  RETURN count(CASE WHEN n.createdAt < buckets[0].start THEN 1 END) AS before,
         collect(CASE WHEN n.createdAt >= buckets[0].start THEN n.createdAt END) AS recent
}
UNWIND buckets AS b
RETURN b.start AS startInterval, b.end AS endInterval, before + size([c IN recent WHERE c < b.end]) AS count
ORDER BY startInterval
