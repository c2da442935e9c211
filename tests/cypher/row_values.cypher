// Every kind of value a row can hold, for the executor's row conversion: two probe nodes and a relationship (deleted with delete_row_probes), returned as nodes, a relationship and a path, with temporal values inside maps and lists, spatial and duration values, bytes and nulls.
// params: $tag string, $blob bytes
// returns: node, rel, path, nested, mixed, times, nodes_in_maps, nested_lists, pt, dur, blob, nothing, empty, empty_map
CREATE (a:RowProbe {tag: $tag, name: 'a', at: datetime('2024-05-06T07:08:09.123456Z')})
       -[r:PROBED {since: date('2024-01-02')}]->(b:RowProbe {tag: $tag, name: 'b'})
WITH a, r, b
MATCH p = (a)-[:PROBED]->(b)
RETURN a AS node, r AS rel, p AS path,
       {when: a.at, list: [a.at, localtime('10:11:12')], day: date('2024-03-04'), t: time('10:11:12+01:00'),
        plain: {x: 1, y: [2.5, 3.5]}} AS nested,
       [1, 2.5, 'x', null, true, a.at] AS mixed,
       [a.at, localdatetime('2024-01-01T00:00:00')] AS times,
       [{n: a, k: 1}] AS nodes_in_maps,
       [[1, 2], [a.at], []] AS nested_lists,
       point({x: 1.0, y: 2.0}) AS pt, duration('P1DT2H') AS dur, $blob AS blob, null AS nothing,
       [] AS empty, {} AS empty_map
