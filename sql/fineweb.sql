-- sql/fineweb.sql: FineWeb's filter chain (Penedo et al. 2024) over a crawl, in datatrove 0.10.1's
-- order: URL filter -> extraction -> language (fastText lid.176, English, score > 0.65) -> Gopher repetition ->
-- Gopher quality -> C4 (FineWeb's variant: lines without terminal punctuation are kept; the
-- document goes on as C4's rewritten text) -> FineWeb quality (on that text). Each step sees only
-- the documents the steps before it kept, and each function runs once per document it sees.
--
-- Reads:  table `crawl` with columns `url` and `html` (string or binary) and, for the default
--         extraction, `file` and `offset` (the WARC file and the record's place in it), e.g.
--
--             webtext sql --table warc='crawl/*.warc.gz' --file sql/datatrove_warc.sql --output crawl.parquet
--             webtext sql --table crawl=crawl.parquet --file sql/fineweb.sql --output kept.parquet
--
--         (`webtext fineweb WARC... OUT` runs both, then FineWeb's MinHash and PII steps.)
-- Writes: every document's fate to `${decisions}` (statement 1: the crawl's columns but html,
--         removed_by = the step that removed it or NULL, reason = that step's reason, language,
--         language_score, and text = the text FineWeb passes on, for kept documents); prints how
--         many documents each step removed (statement 3, the table of a paper) and by which reason
--         (statement 4); returns the kept documents (the last statement; to --output if given). A
--         document a function could not process (NULL: a bug of ours, counted by row_panics) is
--         removed by that step with the reason 'unprocessed'.
--
-- Extraction is trafilatura 2.3.1 as datatrove's Trafilatura block runs it (favor_precision,
-- without comments, de-duplication on): `trafilatura_in_order` over each WARC file's records in
-- order, with one de-duplication cache per file, seeing only the pages the URL filter passed
-- (`page` is NULL for the others, which leaves the cache alone), as one datatrove task reads a
-- file. `--param extraction=EXPR` replaces it with any expression of `page`: a crawl without
-- `file` and `offset` (or a sharded run whose shards split a WARC file's records) can take
-- `trafilatura(page, 'favor_precision=true, include_comments=false')` (no de-duplication, every
-- core) or `justext(page)`.
--
-- The URL filter is datatrove 0.10.1's URLFilter with its lists: its block list is read from the
-- file the datatrove wheel ships (README, "The URL filter's block list"); without it the run stops
-- with an error that says how to get it, and `--param url_filter=block_list=none` filters with
-- datatrove's word lists alone. Two steps FineWeb did not run, as other chains do (C4, FineWeb-2):
-- `--param badwords=true` removes documents with a word of C4's bad-words list (LDNOOBW, English)
-- after FineWeb quality, and `--param pii=true` replaces e-mail and IP addresses in the kept text
-- as FineWeb-2's PIIFormatter does (FineWeb's own PII step comes after MinHash: `webtext fineweb`).
--
-- Differences from FineWeb's run: the block list is datatrove 0.10.1's, not FineWeb's; the
-- language model is the bundled lid.176.ftz unless `--param model=/path/to/lid.176.bin`
-- (datatrove's). datatrove keeps a document when the score of `language` is over the threshold;
-- over a threshold of 0.5 that is the document whose most probable language it is, as tested
-- here. Documents whose extracted text is empty are removed by extraction, as datatrove's
-- extractors and readers drop empty documents.
--
-- @param html = html
-- @param url = url
-- @param extraction = trafilatura_in_order(page, 'favor_precision=true, include_comments=false, deduplicate=true') OVER (PARTITION BY file ORDER BY "offset")
-- @param language = en
-- @param language_threshold = 0.65
-- @param model = lid.176.ftz
-- @param decisions = fineweb_decisions.parquet
-- @param url_filter = block_list=auto
-- @param badwords = false
-- @param pii = false

-- 0. A crawl read in its files' order (WARC tables say so) keeps that order through the filters'
--    parallel partitions instead of being sorted again for trafilatura's window.
SET datafusion.optimizer.prefer_existing_sort = true;

-- 1. Each document through the chain: a step's function runs only where the steps before it
--    passed (DataFusion's CASE evaluates its branch on those rows alone). trafilatura runs in
--    each stream's order with one de-duplication cache, and sees only the pages the URL filter
--    passed (a NULL page leaves the cache alone), as datatrove's one process per task sees them.
COPY (
  SELECT * EXCLUDE (site, extracted, lang, lang_ok, rep, qual, c4, fw, bad),
         CASE WHEN NOT coalesce(site['passed'], false) THEN 'url_filter'
              WHEN extracted IS NULL OR extracted = '' THEN 'extraction'
              WHEN NOT lang_ok THEN 'language'
              WHEN NOT coalesce(rep['passed'], false) THEN 'gopher_repetition'
              WHEN NOT coalesce(qual['passed'], false) THEN 'gopher_quality'
              WHEN NOT coalesce(c4['passed'], false) THEN 'c4_quality'
              WHEN NOT coalesce(fw['passed'], false) THEN 'fineweb_quality'
              WHEN ${badwords} AND NOT coalesce(bad['passed'], false) THEN 'c4_badwords'
         END AS removed_by,
         CASE WHEN NOT coalesce(site['passed'], false) THEN coalesce(site['reason'], 'unprocessed')
              WHEN extracted IS NULL OR extracted = '' THEN 'empty'
              WHEN NOT lang_ok THEN lang['language']
              WHEN NOT coalesce(rep['passed'], false) THEN coalesce(rep['reason'], 'unprocessed')
              WHEN NOT coalesce(qual['passed'], false) THEN coalesce(qual['reason'], 'unprocessed')
              WHEN NOT coalesce(c4['passed'], false) THEN coalesce(c4['reason'], 'unprocessed')
              WHEN NOT coalesce(fw['passed'], false) THEN coalesce(fw['reason'], 'unprocessed')
              WHEN ${badwords} AND NOT coalesce(bad['passed'], false) THEN coalesce(bad['reason'], 'unprocessed')
         END AS reason,
         lang['language'] AS language,
         lang['score'] AS language_score,
         CASE WHEN coalesce(fw['passed'], false) AND (NOT ${badwords} OR coalesce(bad['passed'], false)) THEN
                CASE WHEN ${pii} THEN pii_redact(c4['text'])['text'] ELSE c4['text'] END
         END AS text
  FROM (
    SELECT *, CASE WHEN ${badwords} AND fw['passed'] THEN c4_badwords(c4['text'], 'en') END AS bad
    FROM (
      SELECT *, CASE WHEN c4['passed'] THEN fineweb_quality(c4['text']) END AS fw
      FROM (
        SELECT *, CASE WHEN qual['passed'] THEN c4_quality(extracted, 'filter_no_terminal_punct=false') END AS c4
        FROM (
          SELECT *, CASE WHEN rep['passed'] THEN gopher_quality(extracted) END AS qual
          FROM (
            SELECT *, CASE WHEN lang_ok THEN gopher_repetition(extracted) END AS rep
            FROM (
              SELECT *,
                     coalesce(lang['language'] = '${language}' AND lang['score'] > ${language_threshold}, false) AS lang_ok
              FROM (
                SELECT * EXCLUDE (page),
                       CASE WHEN extracted <> '' THEN detect_language(extracted, 'model=${model}') END AS lang
                FROM (
                  SELECT *, ${extraction} AS extracted
                  FROM (SELECT * EXCLUDE ("${html}"), CASE WHEN site['passed'] THEN "${html}" END AS page
                        FROM (SELECT *, url_filter("${url}", '${url_filter}') AS site FROM crawl))
                )
              )
            )
          )
        )
      )
    )
  )
) TO '${decisions}' STORED AS PARQUET;

CREATE EXTERNAL TABLE fineweb_decisions STORED AS PARQUET LOCATION '${decisions}';

-- 3. Per step: the documents it saw, removed and passed on.
WITH steps(n, step) AS (
       VALUES (0, 'url_filter'), (1, 'extraction'), (2, 'language'), (3, 'gopher_repetition'),
              (4, 'gopher_quality'), (5, 'c4_quality'), (6, 'fineweb_quality'), (7, 'c4_badwords')),
     removed AS (SELECT removed_by AS step, count(*) AS removed FROM fineweb_decisions
                 WHERE removed_by IS NOT NULL GROUP BY removed_by),
     per_step AS (
       SELECT s.n, s.step, coalesce(r.removed, 0) AS removed,
              (SELECT count(*) FROM fineweb_decisions)
                - coalesce(sum(coalesce(r.removed, 0)) OVER (ORDER BY s.n ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0)
                AS documents_in
       FROM steps s LEFT JOIN removed r ON r.step = s.step)
SELECT step, documents_in, removed,
       round(CAST(removed AS DOUBLE) / nullif(documents_in, 0), 4) AS removed_share,
       documents_in - removed AS kept
FROM per_step ORDER BY n;

-- 4. Per step and reason (for the language step, the language it found instead).
SELECT removed_by, reason, count(*) AS documents
FROM fineweb_decisions WHERE removed_by IS NOT NULL
GROUP BY removed_by, reason ORDER BY removed_by, documents DESC, reason;

-- 5. The kept documents: the text FineWeb passes on, with the crawl's other columns.
SELECT * EXCLUDE (removed_by, reason) FROM fineweb_decisions WHERE removed_by IS NULL;
