-- Exact de-duplication (datatrove 0.10.1's ExactDedupSignature, ExactFindDedups and
-- ExactDedupFilter): documents → every document with kept and duplicate_count. Of the documents
-- whose texts hash equal, the first in the order of priority (high to low) and then id is kept
-- with the count of the others, and the others are dropped.
--
-- Reads:  table `documents`: a unique integer id column (datatrove's document order) and a text
--         column; an index (`index_hashes`, below) of hashes that are already in the corpus.
-- Writes: returns every column of `documents`, then kept and duplicate_count (the copies dropped
--         after a kept document: 0 for a unique one; NULL for a dropped one, which datatrove
--         gives none).
--         The hashes of every document are sorted by one sort that spills to disk under the
--         memory limit; only the decisions of documents with copies are held.
-- Run:    webtext sql --table documents=docs.parquet --file sql/exact_dedup.sql --output out.parquet
--             [--param "priority=length(text)"]
--         (`webtext exact-dedup docs.parquet out.parquet` runs this same file, and reads
--         datatrove's index folders.)
--
-- Parameters (a `--param NAME=VALUE` of `webtext sql` overrides the value after '='):
-- @param options =
--        (the options of exact_dedup_hash: hash_fc, precision)
-- @param id = doc_id
-- @param text = text
-- @param priority = 1
--        (an SQL expression over the documents' columns, from 1 to 65535 as in datatrove: of
--        equal texts the one with the highest is kept)
-- @param index_hashes = SELECT arrow_cast(NULL, 'UInt64') AS hash WHERE false
--        (a query giving the index's hashes in a column hash; none by default)
-- @param has_index = false
--        (true when the index holds a hash: datatrove then drops only the documents whose hash
--        is in it, unless only_dedup_in_index is false)
-- @param only_dedup_in_index = true

-- 0. The hashes of every core are sorted together, by one sort that spills.
SET datafusion.optimizer.repartition_file_scans = false;
SET datafusion.optimizer.repartition_sorts = false;
-- A join's build side is the one written first (the index, then the decisions), not the
-- optimizer's guess.
SET datafusion.optimizer.join_reordering = false;

-- 1. Every document's hash and priority (datatrove's signature stage).
CREATE VIEW exact_signatures AS
SELECT "${id}" AS id, exact_dedup_hash("${text}", '${options}') AS hash, ${priority} AS priority
FROM documents;

-- 2. The decisions of the documents that share their hash with another or with the index
--    (datatrove's find stage): its walk in the order of hash, priority from high to low and
--    document takes the first of each hash as the one the others duplicate. An index hash comes
--    before every document, so all of its documents are dropped; with an index and
--    only_dedup_in_index, datatrove drops nothing else, yet still counts the copies after the
--    first.
CREATE TABLE exact_duplicates AS
SELECT id, kept, CASE WHEN NOT kept THEN NULL WHEN place = 1 THEN copies - 1 ELSE 0 END AS duplicate_count
FROM (
  SELECT id, place, copies,
         CASE WHEN in_index THEN false
              WHEN ${has_index} AND ${only_dedup_in_index} THEN true
              ELSE place = 1 END AS kept
  FROM (
    -- The index is the join's build side, held in memory; the documents' places stream past.
    SELECT w.id, w.place, w.copies, i.hash IS NOT NULL AS in_index
    FROM (SELECT DISTINCT hash FROM (${index_hashes})) i
    RIGHT JOIN (
      SELECT id, hash,
             row_number() OVER (PARTITION BY hash ORDER BY priority DESC, id) AS place,
             count(*) OVER (PARTITION BY hash) AS copies
      FROM exact_signatures
      WHERE hash IS NOT NULL
    ) w ON w.hash = i.hash
  )
  WHERE copies > 1 OR in_index
);

-- 3. Every document with its decision (datatrove's filter stage): the decisions are the join's
--    build side, held in memory, and the documents stream past them.
SELECT d.*, coalesce(x.kept, true) AS kept,
       CASE WHEN x.id IS NULL THEN 0 ELSE x.duplicate_count END AS duplicate_count
FROM exact_duplicates x RIGHT JOIN documents d ON x.id = d."${id}";
