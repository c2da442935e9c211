// Resample the indexes and drop cached plans, so the next statements are planned on the statistics of the data as it is now (used after a bulk load, e.g. by the speed guard).
// params: $timeout_s int
// returns: nothing
CALL db.prepareForReplanning($timeout_s)
