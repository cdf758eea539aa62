// Secondary indexes for the read API: sorted lists, search and time windows.
CREATE INDEX dataset_updated_at IF NOT EXISTS FOR (d:Dataset) ON (d.updatedAt);
CREATE INDEX job_updated_at IF NOT EXISTS FOR (j:Job) ON (j.updatedAt);
CREATE INDEX job_latest_run_state IF NOT EXISTS FOR (j:Job) ON (j.latestRunState);
// Soft-deleted datasets/jobs and alias datasets are rare: list totals subtract them, found through these.
CREATE INDEX dataset_is_deleted IF NOT EXISTS FOR (d:Dataset) ON (d.isDeleted);
CREATE INDEX dataset_is_alias IF NOT EXISTS FOR (d:Dataset) ON (d.isAlias);
CREATE INDEX job_is_deleted IF NOT EXISTS FOR (j:Job) ON (j.isDeleted);
CREATE INDEX run_started_at IF NOT EXISTS FOR (r:Run) ON (r.startedAt);
// A job's latest run and a dataset's version committed last, at or before a time (point-in-time
// lineage, the version a run read, LATEST_RUN and CURRENT_VERSION chosen again). The id is in the key
// so that `ORDER BY` all four properties descending `LIMIT 1` reads one entry, ties broken by id.
CREATE INDEX run_job_sort_order IF NOT EXISTS FOR (r:Run) ON (r.jobNamespace, r.jobName, r.sortTime, r.id);
// A job version's latest run (the job's version pages), read as one entry whatever the number of runs
// that executed it (`jobVersion` mirrors the run's EXECUTED).
CREATE INDEX run_version_sort_order IF NOT EXISTS FOR (r:Run) ON (r.jobVersion, r.sortTime, r.id);
CREATE INDEX dataset_version_commit_order IF NOT EXISTS FOR (v:DatasetVersion) ON (v.namespace, v.name, v.committedAt,
  v.id);
// A dataset's newest version created at or before a time, and its newest declaring column lineage
// (lineage/column-declarations.cypher): one entry read, however many versions the dataset has.
CREATE INDEX dataset_version_create_order IF NOT EXISTS FOR (v:DatasetVersion) ON (v.namespace, v.name, v.createdAt,
  v.id);
// A job's version used last (its CURRENT_VERSION, chosen again when versions lose time or go away).
CREATE INDEX job_version_use_order IF NOT EXISTS FOR (v:JobVersion) ON (v.namespace, v.name, v.updatedAt, v.id);
// A page of a job's versions, newest first (jobs/versions.cypher): read in the index's order, where a
// job writing a new partition each run has a version per run.
CREATE INDEX job_version_create_order IF NOT EXISTS FOR (v:JobVersion) ON (v.namespace, v.name, v.createdAt, v.id);
CREATE INDEX run_state IF NOT EXISTS FOR (r:Run) ON (r.state);
CREATE INDEX dataset_version_created_at IF NOT EXISTS FOR (v:DatasetVersion) ON (v.createdAt);
// Versions committed since a time: the schema changes of /api/v1/impact/schema-changes (in commit order, the
// order that makes a version current).
CREATE INDEX dataset_version_committed_at IF NOT EXISTS FOR (v:DatasetVersion) ON (v.committedAt);
CREATE INDEX lineage_event_time IF NOT EXISTS FOR (e:LineageEvent) ON (e.eventTime);
CREATE INDEX lineage_event_received IF NOT EXISTS FOR (e:LineageEvent) ON (e.receivedAt);
// The stored events of a run, a job and a dataset: what is replayed when a name turns out to be a
// symlink alias of another dataset (src/store/alias-repair.ts).
CREATE INDEX lineage_event_run IF NOT EXISTS FOR (e:LineageEvent) ON (e.runId);
CREATE INDEX lineage_event_job IF NOT EXISTS FOR (e:LineageEvent) ON (e.jobNamespace, e.jobName);
CREATE INDEX lineage_event_dataset IF NOT EXISTS FOR (e:LineageEvent) ON (e.datasetNamespace, e.datasetName);
// Case-insensitive substring search (`/api/v1/search`) uses text indexes on lower-cased names.
CREATE TEXT INDEX dataset_search_name IF NOT EXISTS FOR (d:Dataset) ON (d.searchName);
CREATE TEXT INDEX job_search_name IF NOT EXISTS FOR (j:Job) ON (j.searchName);
