// Indexes of earlier versions that newer ones replace (02-indexes.cypher): dropped at start.
// run_job_sort_time and dataset_version_committed_at lacked the id tie-break (run_job_sort_order,
// dataset_version_commit_order).
DROP INDEX run_job_sort_time IF EXISTS;
DROP INDEX dataset_version_committed_at IF EXISTS;
