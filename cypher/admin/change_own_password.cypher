// Replace the connected user's own password (the local server's password rotation; system database).
// params: $old string, $new string
// returns: nothing
ALTER CURRENT USER SET PASSWORD FROM $old TO $new
