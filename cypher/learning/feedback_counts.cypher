// How many verdicts a tenant's users gave, helpful and not, over how many retrieves.
// params: $tenant string
// returns: labels int, helpful int, retrieves int
MATCH (f:RankFeedback {tenant: $tenant})
RETURN count(f) AS labels, sum(CASE WHEN f.helpful THEN 1 ELSE 0 END) AS helpful,
       count(DISTINCT f.retrieve_id) AS retrieves
