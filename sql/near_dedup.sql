-- Near-duplicate documents (datatrove 0.10.1's MinHash de-duplication): documents → every document
-- with its cluster_id, cluster_size and kept.
--
-- Reads:  table `documents`: a unique integer id column (datatrove's document order: in a cluster
--         the kept document depends on it) and a text column.
-- Writes: returns every column of `documents`, then cluster_id (−1 for a document in no cluster),
--         cluster_size (1 then) and kept (false for the near-duplicates datatrove removes).
--         Statement 1 streams the signatures and bands on every core and holds 8 bytes per
--         document and 8 per band (120 bytes per document with 14 bands) until it clusters them.
-- Run:    webtext sql --table documents=docs.parquet --file sql/near_dedup.sql --output out.parquet \
--             [--param buckets=20 --param rows=10 --param config=fineweb]
--         (`webtext near-dedup docs.parquet out.parquet` runs this same file.)
--
-- Parameters (a `--param NAME=VALUE` of `webtext sql` overrides the value after '='):
-- @param n_grams = 5
-- @param buckets = 14
-- @param rows = 8
-- @param config = default
-- @param id = doc_id
-- @param text = text

-- 0. Spread the documents over all cores batch by batch: a file of one row group would otherwise
--    be hashed by one thread.
SET datafusion.optimizer.repartition_file_scans = false;

-- 1. The clustered documents: one row for each document that shares a band with another. The
--    candidate pairs are the documents with equal band hashes; to list them in plain SQL:
--      SELECT band, band_hash, array_agg("doc_id") FROM (
--        SELECT "doc_id", unnest(range(0, 14)) AS band,
--               unnest(minhash_bands(minhash("text"), 14, 8)) AS band_hash FROM documents)
--      GROUP BY band, band_hash HAVING count(*) > 1
CREATE TABLE near_duplicate_clusters AS
SELECT get_field(c, 'id') AS id,
       get_field(c, 'cluster_id') AS cluster_id,
       get_field(c, 'cluster_size') AS cluster_size,
       get_field(c, 'kept') AS kept
FROM (
  SELECT unnest(minhash_clusters(
           "${id}",
           minhash_bands(minhash("${text}", 'config=${config}, n_grams=${n_grams}, num_buckets=${buckets}, hashes_per_bucket=${rows}'),
                         ${buckets}, ${rows}))) AS c
  FROM documents
);

-- 2. Every document, with its cluster.
SELECT d.*,
       coalesce(c.cluster_id, -1) AS cluster_id,
       coalesce(c.cluster_size, 1) AS cluster_size,
       coalesce(c.kept, true) AS kept
FROM documents d LEFT JOIN near_duplicate_clusters c ON d."${id}" = c.id;
