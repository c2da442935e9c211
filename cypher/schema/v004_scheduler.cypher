// Schema version 4: the cluster's periodic-job scheduler lease (unique name: race-free MERGE).
// params: none
// returns: nothing; one statement per `;`-terminated block, run in order by graph/schema.py
CREATE CONSTRAINT scheduler_lease_name IF NOT EXISTS FOR (n:SchedulerLease) REQUIRE n.name IS UNIQUE;
