// Delete a tenant's ranking model versions and its verdicts (clean-up after a test's tenant).
// params: $tenant string
// returns: nothing
CALL () {
  MATCH (m:RankerModel {tenant: $tenant}) DETACH DELETE m
}
CALL () {
  MATCH (f:RankFeedback {tenant: $tenant}) DETACH DELETE f
}
