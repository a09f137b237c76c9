-- Near-duplicate documents (datatrove 0.10.1's MinHash de-duplication): documents → every document
-- with its cluster_id, cluster_size and kept.
--
-- Reads:  table `documents`: a unique integer id column (datatrove's document order: in a cluster
--         the kept document depends on it) and a text column.
-- Writes: returns every column of `documents`, then cluster_id (−1 for a document in no cluster),
--         cluster_size (1 then) and kept (false for the near-duplicates datatrove removes).
--         The documents are hashed on every core, their band hashes sorted by one sort that
--         spills to disk under the memory limit, and only the candidate pairs reach the one task that replays datatrove's union-find,
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
--    be hashed by one thread. The band hashes of every core are then sorted together, by one
--    sort that spills under the memory limit: with a sort per core, the exchange in front of
--    them (which this project's memory pool never refuses, as DataFusion 55.2's spilling of
--    exchanges can stall a query) held up to 262 MB of documents for one of them under a limit
--    of 256 MiB.
SET datafusion.optimizer.repartition_file_scans = false;
SET datafusion.optimizer.repartition_sorts = false;

-- 1. Every document's band hashes (datatrove's signature stage): one row per band; a text too
--    short for a shingle has none and is never a duplicate.
CREATE VIEW document_bands AS
SELECT "${id}" AS id,
       unnest(range(0, ${buckets})) AS band,
       unnest(minhash_bands(minhash("${text}", 'config=${config}, n_grams=${n_grams}, num_buckets=${buckets}, hashes_per_bucket=${rows}, ${minhash_options}'),
                            ${buckets}, ${rows})) AS band_hash
FROM documents;

-- 2. The candidate pairs (datatrove's buckets stage): in each band, the documents with equal band
--    hashes chained in id order, each paired with the one before it. One order over all bands
--    (windows PARTITION BY band would send the rows to the cores by band, through such an
--    exchange again).
CREATE VIEW candidate_pairs AS
SELECT band, band_hash, previous_id, id
FROM (
  SELECT band, band_hash, id,
         lag(id) OVER in_order AS previous_id,
         lag(band) OVER in_order AS previous_band,
         lag(band_hash) OVER in_order AS previous_hash
  FROM document_bands
  WHERE band_hash IS NOT NULL
  WINDOW in_order AS (ORDER BY band, band_hash, id)
)
WHERE previous_band = band AND previous_hash = band_hash;

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

-- 4. Every document, with its cluster: the clusters are the join's build side, held in memory
--    (four numbers per clustered document), and the documents stream past them, whatever the
--    statistics say (with its join reordering, DataFusion held every document's text instead when
--    a Parquet file's statistics made the documents look smaller).
SET datafusion.optimizer.join_reordering = false;
SELECT d.*,
       coalesce(c.cluster_id, -1) AS cluster_id,
       coalesce(c.cluster_size, 1) AS cluster_size,
       coalesce(c.kept, true) AS kept
FROM near_duplicate_clusters c RIGHT JOIN documents d ON c.id = d."${id}";
