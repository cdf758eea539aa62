// Keeps each raw event once (its id is a hash of its canonical JSON, so a retried POST is a no-op).
// Params: $events: [{id, receivedAt, kind, eventType, eventTime (ISO), producer, schemaURL, runId, jobNamespace,
// jobName,
//   datasetNamespace, datasetName (a DatasetEvent's dataset, as sent), payload (JSON string)}]
// Returns nothing.
// Its plan starts from unique-key seeks, so statistics cannot improve it: keep the cached plan (cypher/README.md).
CYPHER replan=skip
UNWIND $events AS event
MERGE (e:LineageEvent {id: event.id})
  ON CREATE SET e.kind = event.kind, e.eventType = event.eventType, e.eventTime = datetime(event.eventTime),
                e.producer = event.producer, e.schemaURL = event.schemaURL, e.runId = event.runId,
                e.jobNamespace = event.jobNamespace, e.jobName = event.jobName,
                e.datasetNamespace = event.datasetNamespace, e.datasetName = event.datasetName,
                e.payload = event.payload, e.receivedAt = datetime(event.receivedAt)
