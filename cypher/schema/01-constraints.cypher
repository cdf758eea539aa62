// Uniqueness constraints behind every identity in the lineage graph.
// Applied at every service start (IF NOT EXISTS makes that safe on a database that already has data).
// They also give MERGE its concurrency guarantee: two writers MERGE-ing the same key cannot both create it.
CREATE CONSTRAINT namespace_name IF NOT EXISTS FOR (n:Namespace) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT source_name IF NOT EXISTS FOR (s:Source) REQUIRE s.name IS UNIQUE;
CREATE CONSTRAINT dataset_key IF NOT EXISTS FOR (d:Dataset) REQUIRE (d.namespace, d.name) IS UNIQUE;
CREATE CONSTRAINT dataset_version_id IF NOT EXISTS FOR (v:DatasetVersion) REQUIRE v.id IS UNIQUE;
CREATE CONSTRAINT dataset_field_key IF NOT EXISTS FOR (f:DatasetField) REQUIRE (f.namespace, f.dataset,
  f.name) IS UNIQUE;
CREATE CONSTRAINT job_key IF NOT EXISTS FOR (j:Job) REQUIRE (j.namespace, j.name) IS UNIQUE;
CREATE CONSTRAINT job_version_id IF NOT EXISTS FOR (v:JobVersion) REQUIRE v.id IS UNIQUE;
CREATE CONSTRAINT run_id IF NOT EXISTS FOR (r:Run) REQUIRE r.id IS UNIQUE;
CREATE CONSTRAINT tag_name IF NOT EXISTS FOR (t:Tag) REQUIRE t.name IS UNIQUE;
CREATE CONSTRAINT lineage_event_id IF NOT EXISTS FOR (e:LineageEvent) REQUIRE e.id IS UNIQUE;
