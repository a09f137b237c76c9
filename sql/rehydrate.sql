-- FineWeb-2's "rehydration": after MinHash de-duplication, each kept document is repeated 1 to 10
-- times according to the size of its duplicate cluster (huggingface/fineweb-2: the "Deduplication"
-- section of its README, and misc/rehydration/ with a table per language). Not a datatrove
-- block: FineWeb-2 runs it as a step of its own after datatrove's MinHash filter.
--
-- Reads:  table `documents`: `webtext near-dedup`'s output (every document with kept and
--         cluster_size, or the kept ones only with --kept-only). cluster_size is datatrove's
--         minhash_cluster_size: the size of the kept document's cluster, 1 for a document in none.
-- Writes: returns every kept document `weight` times, one after the other, with the columns
--         `weight` and `copy` (0 .. weight - 1) added.
-- Run:    webtext sql --table documents=near_dedup.parquet --file sql/rehydrate.sql --output out.parquet
--         (a language's table: its entry of misc/rehydration/weights/up_to_10_reps.json, as JSON or
--         as size:weight pairs: --param 'weights={"1": 1, "2": 3, "3": 4, ...}' or
--         --param 'weights=1:1,2:3,3:4,...')
--
-- The weight of a size is the weight of the largest key at most that size; a size below the
-- smallest key weighs 1 (misc/rehydration's expanded lookup), or, with
-- `--param below_smallest_key=largest`, the weight of the largest key, as the README's step
-- computes it with bisect_right (index -1 in Python is the last entry). The README's own table
-- starts at 1, so both agree on it.
--
-- @param weights = 1:1,2:2,3:3,5:5,100:8,1000:1
-- @param below_smallest_key = one
-- @param cluster_size = cluster_size

WITH entries AS (
       SELECT CAST(split_part(entry, ':', 1) AS BIGINT) AS min_size,
              CAST(split_part(entry, ':', 2) AS BIGINT) AS weight
       FROM unnest(string_to_array(regexp_replace('${weights}', '[\s{}"]', '', 'g'), ',')) AS t(entry)),
     sizes AS (
       SELECT DISTINCT CAST("${cluster_size}" AS BIGINT) AS size FROM documents WHERE kept),
     weight_of_size AS (
       SELECT s.size,
              coalesce(last_value(e.weight ORDER BY e.min_size),
                       CASE '${below_smallest_key}'
                         WHEN 'one' THEN 1
                         WHEN 'largest' THEN (SELECT last_value(weight ORDER BY min_size) FROM entries)
                         -- Fails for a row that needs it (a constant would fail every run).
                         ELSE CAST(concat('below_smallest_key must be one or largest, for size ', s.size) AS BIGINT)
                       END) AS weight
       FROM sizes s LEFT JOIN entries e ON e.min_size <= s.size
       GROUP BY s.size)
SELECT *, unnest(range(0, weight)) AS copy
FROM (
  SELECT d.*, w.weight
  FROM documents d JOIN weight_of_size w ON CAST(d."${cluster_size}" AS BIGINT) = w.size
  WHERE d.kept);
