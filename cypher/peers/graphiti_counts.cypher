// What a Graphiti graph holds, including what an import does not map (mentions, communities).
// params: $groups list<string>|null (null: every group)
// returns: episodes, entities, edges, mentions, communities int
CALL () { MATCH (n:Episodic) WHERE n.uuid IS NOT NULL AND ($groups IS NULL OR n.group_id IN $groups) RETURN count(n) AS episodes }
CALL () { MATCH (n:Entity) WHERE n.uuid IS NOT NULL AND ($groups IS NULL OR n.group_id IN $groups) RETURN count(n) AS entities }
CALL () { MATCH (:Entity)-[r:RELATES_TO]->(:Entity) WHERE r.uuid IS NOT NULL AND ($groups IS NULL OR r.group_id IN $groups) RETURN count(r) AS edges }
CALL () { MATCH (:Episodic)-[r:MENTIONS]->() WHERE $groups IS NULL OR r.group_id IN $groups RETURN count(r) AS mentions }
CALL () { MATCH (n:Community) WHERE $groups IS NULL OR n.group_id IN $groups RETURN count(n) AS communities }
RETURN episodes, entities, edges, mentions, communities
