// Hold a transaction open for $ms milliseconds (transaction-timeout tests).
// params: $ms int
// returns: slept bool
CALL apoc.util.sleep($ms)
RETURN true AS slept
