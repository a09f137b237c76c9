-- Near-duplicate documents (datatrove 0.10.1's MinHash de-duplication): documents → every document
-- with its cluster_id, cluster_size and kept.
--
-- Reads:  table `documents`: a unique integer id column (datatrove's document order: in a cluster
--         the kept document depends on it) and a text column.
-- Writes: returns every column of `documents`, then cluster_id (−1 for a document in no cluster),
--         cluster_size (1 then) and kept (false for the near-duplicates datatrove removes).
--         The band hashes are sorted (on every core, spilling to disk under the memory limit),
--         and only the candidate pairs reach the one task that replays datatrove's union-find,
--         which holds about 48 bytes per document that is in some cluster and nothing for the
--         others.
-- Run:    webtext sql --table documents=docs.parquet --file sql/near_dedup.sql --output out.parquet \
--             [--param buckets=20 --param rows=10 --param config=fineweb]
--         (`webtext near-dedup docs.parquet out.parquet` runs this same file.)
--
-- Parameters (a `--param NAME=VALUE` of `webtext sql` overrides the value after '='):
-- @param n_grams = 5
-- @param buckets = 14
-- @param rows = 8
-- @param config = default
-- @param minhash_options =
--        (more of minhash's options, e.g. language=deu_Latn for FineWeb-2's shingles of a
--        language's words)
-- @param id = doc_id
-- @param text = text

-- 0. Spread the documents over all cores batch by batch: a file of one row group would otherwise
--    be hashed by one thread.
SET datafusion.optimizer.repartition_file_scans = false;

-- 1. Every document's band hashes (datatrove's signature stage): one row per band; a text too
--    short for a shingle has none and is never a duplicate.
CREATE VIEW document_bands AS
SELECT "${id}" AS id,
       unnest(range(0, ${buckets})) AS band,
       unnest(minhash_bands(minhash("${text}", 'config=${config}, n_grams=${n_grams}, num_buckets=${buckets}, hashes_per_bucket=${rows}, ${minhash_options}'),
                            ${buckets}, ${rows})) AS band_hash
FROM documents;

-- 2. The candidate pairs (datatrove's buckets stage): in each band, the documents with equal band
--    hashes chained in id order, each paired with the one before it. Sorted per band, on every
--    core.
CREATE VIEW candidate_pairs AS
SELECT band, band_hash, previous_id, id
FROM (
  SELECT band, band_hash, id,
         lag(id) OVER by_band AS previous_id,
         lag(band_hash) OVER by_band AS previous_hash
  FROM document_bands
  WHERE band_hash IS NOT NULL
  WINDOW by_band AS (PARTITION BY band ORDER BY band_hash, id)
)
WHERE previous_hash = band_hash;

-- 3. The clustered documents (datatrove's cluster stage): its union-find replayed over the pairs
--    in its order (band 0 first), then each document's cluster from the unions.
CREATE TABLE near_duplicate_clusters AS
SELECT get_field(c, 'id') AS id,
       get_field(c, 'cluster_id') AS cluster_id,
       get_field(c, 'cluster_size') AS cluster_size,
       get_field(c, 'kept') AS kept
FROM (
  SELECT unnest(minhash_union_clusters(u)) AS c
  FROM (
    SELECT minhash_union(previous_id, id) OVER (ORDER BY band, band_hash, id) AS u
    FROM candidate_pairs
  )
);

-- 4. Every document, with its cluster.
SELECT d.*,
       coalesce(c.cluster_id, -1) AS cluster_id,
       coalesce(c.cluster_size, 1) AS cluster_size,
       coalesce(c.kept, true) AS kept
FROM documents d LEFT JOIN near_duplicate_clusters c ON d."${id}" = c.id;
