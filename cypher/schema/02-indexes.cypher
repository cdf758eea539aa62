// Secondary indexes for the read API: sorted lists, search and time windows.
CREATE INDEX dataset_updated_at IF NOT EXISTS FOR (d:Dataset) ON (d.updatedAt);
CREATE INDEX job_updated_at IF NOT EXISTS FOR (j:Job) ON (j.updatedAt);
CREATE INDEX job_latest_run_state IF NOT EXISTS FOR (j:Job) ON (j.latestRunState);
// Soft-deleted datasets/jobs and alias datasets are rare: list totals subtract them, found through these.
CREATE INDEX dataset_is_deleted IF NOT EXISTS FOR (d:Dataset) ON (d.isDeleted);
CREATE INDEX dataset_is_alias IF NOT EXISTS FOR (d:Dataset) ON (d.isAlias);
CREATE INDEX job_is_deleted IF NOT EXISTS FOR (j:Job) ON (j.isDeleted);
CREATE INDEX run_started_at IF NOT EXISTS FOR (r:Run) ON (r.startedAt);
// Point-in-time lineage (asOf): a job's latest run as of a time, a dataset's current version as of a time.
CREATE INDEX run_job_sort_time IF NOT EXISTS FOR (r:Run) ON (r.jobNamespace, r.jobName, r.sortTime);
CREATE INDEX dataset_version_committed_at IF NOT EXISTS FOR (v:DatasetVersion) ON (v.namespace, v.name, v.committedAt);
CREATE INDEX run_state IF NOT EXISTS FOR (r:Run) ON (r.state);
CREATE INDEX dataset_version_created_at IF NOT EXISTS FOR (v:DatasetVersion) ON (v.createdAt);
CREATE INDEX lineage_event_time IF NOT EXISTS FOR (e:LineageEvent) ON (e.eventTime);
CREATE INDEX lineage_event_received IF NOT EXISTS FOR (e:LineageEvent) ON (e.receivedAt);
// Case-insensitive substring search (`/api/v1/search`) uses text indexes on lower-cased names.
CREATE TEXT INDEX dataset_search_name IF NOT EXISTS FOR (d:Dataset) ON (d.searchName);
CREATE TEXT INDEX job_search_name IF NOT EXISTS FOR (j:Job) ON (j.searchName);
