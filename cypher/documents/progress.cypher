// Progress of a document: its chunks and the status of their extraction jobs.
// params: $agent_id string, $id string
// returns: status, title, chunks int, ingest map, extract list<{status, n}>
MATCH (d:Document {id: $id, agent_id: $agent_id})
OPTIONAL MATCH (d)-[:HAS_CHUNK]->(c:Chunk)
WITH d, collect(c.id) AS chunk_ids
OPTIONAL MATCH (j:Job)
  WHERE j.dedup_key IN [cid IN chunk_ids | 'chunk_extract|' + $agent_id + '|' + cid]
WITH d, chunk_ids, j.status AS job_status, count(j) AS n
WITH d, chunk_ids, collect(CASE WHEN job_status IS NULL THEN null
                               ELSE {status: job_status, n: n} END) AS extract
OPTIONAL MATCH (ij:Job {dedup_key: 'document_ingest|' + $agent_id + '|' + $id})
WITH d, chunk_ids, extract, ij ORDER BY ij.created_at DESC
WITH d, chunk_ids, extract, head(collect(ij)) AS ij
RETURN d.status AS status, d.title AS title, size(chunk_ids) AS chunks,
       CASE WHEN ij IS NULL THEN null
            ELSE {id: ij.id, status: ij.status, progress: ij.progress} END AS ingest,
       extract
