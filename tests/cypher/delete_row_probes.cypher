// Deletes the probe nodes row_values created.
// params: $tag string
// returns: nothing
MATCH (n:RowProbe {tag: $tag})
DETACH DELETE n
