-- Sentence de-duplication (datatrove 0.10.1's SentenceDedupSignature, SentenceFindDedups and
-- SentenceDedupFilter, after C4): documents → every document with its text without the spans of
-- three sentences that occurred earlier in the corpus, and kept.
--
-- Reads:  table `documents`: a unique integer id column (datatrove's document order: of equal
--         spans, the one in the document first in that order stays) and a text column; an index
--         (`index_hashes`, below) of spans that are already in the corpus.
-- Writes: returns every column of `documents`, the text column replaced by the deduplicated text,
--         then removed_sentences and kept (false for the documents datatrove drops: changed and
--         left with fewer than 50 words or 3 sentences, or empty).
--         The span hashes of every document are sorted by one sort that spills to disk under the
--         memory limit; only the duplicated spans' positions are held, per document.
-- Run:    webtext sql --table documents=docs.parquet --file sql/sentence_dedup.sql --output out.parquet
--             [--param options=min_doc_words=0]
--         (`webtext sentence-dedup docs.parquet out.parquet` runs this same file.)
--
-- Parameters (a `--param NAME=VALUE` of `webtext sql` overrides the value after '='):
-- @param options =
--        (the options of sentence_dedup_hashes and sentence_dedup_filter: n_sentences,
--        split_sentences, min_doc_words, min_num_sentences, min_words_to_remove_span, hash_fc,
--        precision)
-- @param id = doc_id
-- @param text = text
-- @param index_hashes = SELECT arrow_cast(NULL, 'UInt64') AS hash WHERE false
--        (a query giving an index's span hashes in a column hash: another corpus's spans; none
--        by default)
-- @param has_index = false
--        (true when the index holds a hash: datatrove then removes only the spans whose hash is
--        in it, unless only_dedup_in_index is false)
-- @param only_dedup_in_index = true

-- 0. The hashes of every core are sorted together, by one sort that spills (as near_dedup.sql
--    explains, a sort per core would hold documents in the exchange in front of them).
SET datafusion.optimizer.repartition_file_scans = false;
SET datafusion.optimizer.repartition_sorts = false;
-- A join's build side is the one written first (the index, then the decisions), not the
-- optimizer's guess.
SET datafusion.optimizer.join_reordering = false;

-- 1. Every document's span hashes (datatrove's signature stage): one row per span, its first
--    sentence's index beside it; blank spans have no hash.
CREATE VIEW sentence_spans AS
SELECT id, unnest(range(0, cardinality(hashes))) AS sentence, unnest(hashes) AS hash
FROM (SELECT "${id}" AS id, sentence_dedup_hashes("${text}", '${options}') AS hashes FROM documents);

-- 2. The duplicated spans (datatrove's find stage): every span whose hash came before, in the
--    order of hash, document and sentence; each document's starts, gathered. An index hash comes
--    before every span, so all of its spans are duplicates; with an index and
--    only_dedup_in_index, datatrove finds no other.
CREATE TABLE duplicate_spans AS
SELECT id, array_agg(sentence ORDER BY sentence) AS sentences
FROM (
  -- The index is the join's build side, held in memory; the spans stream past it.
  SELECT w.id, w.sentence, w.repeated, i.hash IS NOT NULL AS in_index
  FROM (SELECT DISTINCT hash FROM (${index_hashes})) i
  RIGHT JOIN (
    SELECT id, sentence, hash, lag(hash) OVER (ORDER BY hash, id, sentence) = hash AS repeated
    FROM sentence_spans
    WHERE hash IS NOT NULL
  ) w ON w.hash = i.hash
)
WHERE in_index OR (repeated AND NOT (${has_index} AND ${only_dedup_in_index}))
GROUP BY id;

-- 3. Every document, filtered (datatrove's filter stage): the duplicated spans are the join's
--    build side, held in memory, and the documents stream past them.
SELECT * EXCLUDE (f) REPLACE (get_field(f, 'text') AS "${text}"),
       get_field(f, 'removed_sentences') AS removed_sentences,
       get_field(f, 'kept') AS kept
FROM (
  SELECT d.*, sentence_dedup_filter(d."${text}", s.sentences, '${options}') AS f
  FROM duplicate_spans s RIGHT JOIN documents d ON s.id = d."${id}"
);
