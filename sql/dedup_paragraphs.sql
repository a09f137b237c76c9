-- Paragraph-level de-duplication (onion 1.2): documents → one row per paragraph, kept or not.
--
-- Reads:  table `documents`: an id column (unique; documents are processed in its order) and a text
--         column whose lines are the paragraphs (e.g. the `text` of `webtext clean` or sql/clean.sql).
-- Writes: the duplicate n-grams to the scratch folder `duplicates` (statement 1), then returns one
--         row per paragraph (the last statement): the id, par_idx (from 0), kept (boolean), text.
--         Statement 1 holds 8 bytes per n-gram occurrence of its hash range: for a corpus too big
--         for that, run it once per range (part = 0 .. parts-1, parts a power of two) into the
--         same folder; `webtext dedup --hash-ranges P` does.
-- Run:    webtext sql --table documents=docs.parquet --file sql/dedup_paragraphs.sql \
--             --output paragraphs.parquet [--param n=5 --param threshold=0.25 --param smoothing=false]
--         (`webtext dedup docs.parquet paragraphs.parquet` runs this same file.)
--
-- Parameters (a `--param NAME=VALUE` of `webtext sql` overrides the value after '='):
-- @param n = 7
-- @param threshold = 0.5
-- @param smoothing = true
-- @param stub_length = 20
-- @param protect_unique_documents = false
-- @param duplicates = duplicates
-- @param part = 0
-- @param parts = 1
-- @param id = doc_id
-- @param text = text
-- @param order_by = "doc_id"
-- @param partition_clause =

-- 0. Spread the documents over all cores batch by batch: a file of one row group would otherwise
--    be hashed by one thread.
SET datafusion.optimizer.repartition_file_scans = false;

-- 1. The n-grams that occur at least twice in the corpus, found by sorting (8 bytes per n-gram
--    occurrence). The same set in plain SQL, which DataFusion can spill to disk:
--      SELECT h FROM (SELECT unnest(ngram_hashes("text", 7)) AS h FROM documents)
--      GROUP BY h HAVING count(*) > 1
COPY (
  SELECT unnest(duplicate_ngrams(ngram_hashes("${text}", ${n}), '${part}/${parts}')) AS h FROM documents
) TO '${duplicates}/range-${part}-of-${parts}.parquet' STORED AS PARQUET;

-- 2. onion's sequential pass in id order (order_by = duplicate_fraction("text", 7, 'duplicates'),
--    "doc_id" gives Algorithm 3.1's order), then one row per paragraph. With partition_clause =
--    PARTITION BY <expression> (a site, a language), each partition is de-duplicated on its own,
--    the partitions in parallel; the duplicate n-grams of statement 1 are the whole corpus's,
--    which changes no decision (onion remembers only what it kept in the same partition). duplicate_positions does
--    the tokenizing, hashing and duplicate-set lookups on every core before the window, which then
--    only has the hits left to decide. The text passes the window as Utf8: DataFusion 55's bounded
--    window keeps its last row and appends each new batch to it, and appending to a Utf8View slice
--    keeps every data buffer it points into, so a Utf8View column (how Parquet strings are read by
--    default) would hold the whole corpus in memory.
SELECT "${id}",
       unnest(range(0, cardinality(keep))) AS par_idx,
       unnest(keep) AS kept,
       unnest(string_to_array("${text}", chr(10))) AS text
FROM (
  SELECT "${id}", "${text}",
         onion_keep(found, ${n}, ${threshold},
                    'duplicates=${duplicates}, smoothing=${smoothing}, stub_length=${stub_length}, protect_unique_documents=${protect_unique_documents}')
           OVER (${partition_clause} ORDER BY ${order_by}) AS keep
  FROM (SELECT "${id}", arrow_cast("${text}", 'Utf8') AS "${text}",
               duplicate_positions("${text}", ${n}, '${duplicates}') AS found
        FROM documents)
);
