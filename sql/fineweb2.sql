-- sql/fineweb2.sql: FineWeb-2's per-language filtering (HuggingFace, 2025; fineweb-2-pipeline.py in
-- huggingface/fineweb-2) over documents in any languages, each document through its own language's
-- chain as datatrove 0.10.1 runs it: language-ID score threshold (the language's config) ->
-- Gopher repetition -> FineWeb quality -> Gopher quality, each built from the language's config and
-- cutting words with the tokenizer datatrove assigns the language; then FineWeb-2's final touches
-- on the kept text: FTFY, PII, then the symbol-lines formatter. Each step sees only the documents
-- the steps before it kept.
--
-- Reads:  table `documents` with a key, the text, and its language as FineWeb-2 names it (ISO
--         639-3 and script, `deu_Latn`) with GlotLID's score: the output of language
--         identification, as FineWeb-2's filtering reads it. From a crawl:
--
--             webtext sql --table crawl=CRAWL.parquet --output documents.parquet \
--               "SELECT url, t AS text, l['language'] AS language, l['score'] AS language_score
--                FROM (SELECT url, t, detect_language(t, 'model=/models/glotlid/model.bin') AS l
--                      FROM (SELECT url, extract_content(html) AS t FROM crawl) WHERE t <> '')"
--
--         (GlotLID v3's model.bin, ~1.6 GB from cis-lmu/glotlid on Hugging Face, labels
--         `__label__deu_Latn`; `'top=all'` adds the alternatives FineWeb-2 keeps above 0.01).
--
--             webtext sql --table documents=documents.parquet --file sql/fineweb2.sql --output kept.parquet
--
-- Writes: every document's fate to `${decisions}` (statement 1: key, language, removed_by = the
--         step that removed it or NULL, reason = that step's reason, text = the text passed on,
--         for kept documents); prints per language how many documents each step removed
--         (statement 3); returns the kept documents (the last statement: key, language, text).
--
-- A language without a FineWeb-2 config, or whose tokenizer this build lacks (fineweb2_languages()
-- says which: Sudachi, Kiwi, Stanza, ...), is removed by the step
-- `language` with the reason `no_config` or `no_tokenizer`. A document a function could not
-- process (NULL) is removed by that step with the reason 'unprocessed'.
--
-- The final touches run as FineWeb-2 ran them, one formatter per language over its kept documents:
-- ftfy repairs mojibake and control characters (ftfy, datatrove's FTFYFormatter), PII's cycles of
-- replacement addresses carry from one document to the next in key order (pii_redact_in_order),
-- then each run of lines of '|' becomes an empty line (remove_symbol_lines, which also turns every
-- line break into \n). `--param ftfy=false`, `--param pii=false` or `--param symbol_lines=false`
-- leaves that step out.
--
-- Not here: MinHash de-duplication (per language: sql/near_dedup.sql over one language's documents,
-- with minhash's 'language=...' option for its shingles).
--
-- @param key = url
-- @param text = text
-- @param language = language
-- @param language_score = language_score
--        (an SQL expression: a column, or a constant such as 1.0 for documents known to be of their
--        language)
-- @param decisions = fineweb2_decisions.parquet
-- @param ftfy = true
-- @param pii = true
-- @param symbol_lines = true

-- 1. Each document through its language's chain, then the final touches on the kept ones.
COPY (
  WITH chain AS (
    SELECT key, language,
           CASE WHEN config IS NULL OR NOT config.available THEN 'language'
                WHEN NOT coalesce(score >= config.language_score, false) THEN 'language_score'
                WHEN NOT coalesce(rep['passed'], false) THEN 'gopher_repetition'
                WHEN NOT coalesce(fw['passed'], false) THEN 'fineweb_quality'
                WHEN NOT coalesce(gq['passed'], false) THEN 'gopher_quality'
           END AS removed_by,
           CASE WHEN config IS NULL THEN 'no_config'
                WHEN NOT config.available THEN 'no_tokenizer'
                WHEN NOT coalesce(score >= config.language_score, false) THEN 'below_threshold'
                WHEN NOT coalesce(rep['passed'], false) THEN coalesce(rep['reason'], 'unprocessed')
                WHEN NOT coalesce(fw['passed'], false) THEN coalesce(fw['reason'], 'unprocessed')
                WHEN NOT coalesce(gq['passed'], false) THEN coalesce(gq['reason'], 'unprocessed')
           END AS reason,
           CASE WHEN coalesce(gq['passed'], false) THEN text END AS kept_text
    FROM (
      SELECT *, CASE WHEN fw['passed'] THEN gopher_quality(text, options) END AS gq
      FROM (
        SELECT *, CASE WHEN rep['passed'] THEN fineweb_quality(text, options) END AS fw
        FROM (
          SELECT *, CASE WHEN config.available AND score >= config.language_score
                         THEN gopher_repetition(text, options) END AS rep
          FROM (
            SELECT d.key, d.text, d.language, d.score, c AS config, 'language=' || d.language AS options
            FROM (SELECT "${key}" AS key, "${text}" AS text, "${language}" AS language,
                         ${language_score} AS score FROM documents) d
            LEFT JOIN (SELECT name, named_struct('available', available, 'language_score', language_score) AS c
                       FROM fineweb2_languages()) f ON f.name = d.language
          )
        )
      )
    )
  ),
  -- FTFY, then one PII formatter per language through its kept documents in key order (a
  -- removed document's NULL text does not move its cycles), then the symbol lines.
  fixed AS (
    SELECT key, language, removed_by, reason,
           CASE WHEN ${ftfy} THEN ftfy(kept_text) ELSE kept_text END AS kept_text
    FROM chain
  ),
  redacted AS (
    SELECT key, language, removed_by, reason,
           CASE WHEN ${pii}
                THEN pii_redact_in_order(kept_text) OVER (PARTITION BY language ORDER BY key)['text']
                ELSE kept_text END AS kept_text
    FROM fixed
  )
  SELECT key, language, removed_by, reason,
         CASE WHEN ${symbol_lines} THEN remove_symbol_lines(kept_text, '|', chr(10))
              ELSE kept_text END AS text
  FROM redacted
) TO '${decisions}' STORED AS PARQUET;

CREATE EXTERNAL TABLE fineweb2_decisions STORED AS PARQUET LOCATION '${decisions}';

-- 3. Per language and step: the documents removed, and the documents kept.
SELECT language, coalesce(removed_by, 'kept') AS step, count(*) AS documents
FROM fineweb2_decisions
GROUP BY language, removed_by
ORDER BY language, documents DESC, step;

-- 4. The kept documents.
SELECT key, language, text FROM fineweb2_decisions WHERE removed_by IS NULL;
