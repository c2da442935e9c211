// Revoke an API key by id (idempotent: the first revocation time is kept).
// params: $id string
// returns: id string, revoked_at datetime (no row when the id is unknown)
MATCH (k:ApiKey {id: $id})
SET k.revoked_at = coalesce(k.revoked_at, datetime())
RETURN k.id AS id, k.revoked_at AS revoked_at
