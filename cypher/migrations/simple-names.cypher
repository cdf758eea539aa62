// Migration `simple-names` (src/store/migrations.ts): gives a batch of jobs with a parent the simpleName
// Marquez gives them, their name less the parent's name and a dot when it starts with them, else the whole
// name (earlier versions kept the part after the last dot: a dbt model's `...build.run` became `run`).
// Params: $limit (integer: jobs per batch).
// Returns one row: jobs (the jobs renamed in this batch; 0 when none was left).
CALL () {
  MATCH (j:Job) WHERE j.parentJobName IS NOT NULL
  WITH j, j.parentJobName + '.' AS prefix
  WITH j, CASE WHEN size(j.name) > size(prefix) AND j.name STARTS WITH prefix
    THEN substring(j.name, size(prefix)) ELSE j.name END AS simpleName
  WHERE j.simpleName IS NULL OR j.simpleName <> simpleName
  WITH j, simpleName LIMIT $limit
  SET j.simpleName = simpleName
  RETURN count(*) AS jobs
}
RETURN jobs
