// What retention may touch of one agent: each record's label, id and whether it still holds text.
// params: $agent_id string
// returns: label string, id string, text bool, pending bool
CALL () {
  MATCH (n:Event {agent_id: $agent_id})
  RETURN 'Event' AS label, n.id AS id, n.text IS NOT NULL AS text, n:PendingExtraction AS pending
  UNION ALL MATCH (n:WriteReceipt {agent_id: $agent_id})
  RETURN 'WriteReceipt' AS label, n.key AS id, n.result IS NOT NULL AS text, false AS pending
  UNION ALL MATCH (n:Job {agent_id: $agent_id})
  RETURN 'Job' AS label, n.id AS id, n.payload IS NOT NULL AS text,
         n.status IN ['pending', 'leased'] AS pending
  UNION ALL MATCH (n:JobDedup {agent_id: $agent_id})
  RETURN 'JobDedup' AS label, n.key AS id, true AS text, false AS pending
  UNION ALL MATCH (n:Audit {agent_id: $agent_id})
  RETURN 'Audit' AS label, n.id AS id, n.text IS NOT NULL AS text, n.text_hash IS NULL AS pending
  UNION ALL MATCH (n:Fact {agent_id: $agent_id})
  RETURN 'Fact' AS label, n.id AS id, true AS text, false AS pending
}
RETURN label, id, text, pending
