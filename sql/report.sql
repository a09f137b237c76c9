-- sql/report.sql: the statistics of `webtext report`, one self-contained page of charts about a
-- crawl and its cleaning by jusText. The command runs this file; run by hand it prints the tables.
--
-- Reads:  table `crawl` with columns `url` and the page (`${html}`):
--
--             webtext sql --table crawl=CRAWL.parquet --file sql/report.sql [--param dedup=true]
--
--         (`webtext report CRAWL.parquet report.html` runs this same file and draws the results.)
-- Writes: nothing to disk; prints one table per chart, in the order `webtext report` reads them.
--
-- Each page is parsed once: statement 1 keeps every page with its paragraphs and their measures
-- (`webtext report` streams it to a temporary Parquet file; `webtext sql` holds it in memory) and
-- the other statements read that table.
--
-- Parameters (a `--param NAME=VALUE` of `webtext sql` overrides the value after '='):
-- @param html = html
-- @param language = English
-- @param options =
-- @param dedup = false
-- @param stats = false
-- @param sites = 20
-- @param samples = 5

-- 0. Spread the pages over all cores batch by batch: a file of one row group would otherwise be
--    parsed by one thread.
SET datafusion.optimizer.repartition_file_scans = false;

-- 1. Pages: one row per page, with a random 64-bit key for the statements below (unique even
--    where a crawl holds a URL twice, but for a chance of 1 in 370,000 at ten million pages; a
--    row number would put every page through one thread). With
--    dedup=true, also the hash of the kept text (exact duplicates) and its MinHash bands (near
--    duplicates, datatrove's defaults); with stats=true, datatrove's statistics of the kept text
--    (its five default blocks, as `webtext stats` measures them).
CREATE TABLE pages AS
SELECT content_hash(uuid()) AS page, url, site, bytes, paragraphs, paragraphs IS NULL AS failed,
       CASE WHEN ${dedup} THEN content_hash(nullif(kept, '')) END AS text_hash,
       CASE WHEN ${dedup} THEN minhash_bands(minhash(kept), 14, 8) END AS bands,
       CASE WHEN ${stats} THEN datatrove_stats(nullif(kept, '')) END AS text_stats
FROM (SELECT url,
             regexp_replace(url, '^[A-Za-z]+://(www\.)?([^/:?#]+).*$', '\2') AS site,
             byte_length("${html}") AS bytes,
             justext_paragraphs("${html}", '${language}', '${options}') AS paragraphs,
             CASE WHEN ${dedup} OR ${stats} THEN justext("${html}", '${language}', '${options}') END AS kept
      FROM crawl);

-- 2. The paragraphs' measures, one row each, without their text: the tables below read these
--    rather than unnest the pages again.
CREATE TABLE paragraphs AS
SELECT page,
       p['index'] AS idx,
       p['class'] AS class,
       p['context_free_class'] AS context_free_class,
       p['length'] AS length,
       p['stopword_density'] AS stopword_density,
       p['link_density'] AS link_density
FROM (SELECT page, unnest(paragraphs) AS p FROM pages);

-- 3. Every page with its kept and total characters (0 and 0 for a page without paragraphs;
--    failed for a page jusText could not process).
CREATE TABLE page_measures AS
SELECT pages.page, pages.url, pages.site, pages.bytes, pages.failed,
       coalesce(m.paragraphs, 0) AS paragraphs,
       coalesce(m.good_paragraphs, 0) AS good_paragraphs,
       coalesce(m.kept_chars, 0) AS kept_chars,
       coalesce(m.total_chars, 0) AS total_chars
FROM pages
LEFT JOIN (SELECT page,
                  count(*) AS paragraphs,
                  count(*) FILTER (WHERE class = 'good') AS good_paragraphs,
                  sum(CASE WHEN class = 'good' THEN length ELSE 0 END) AS kept_chars,
                  sum(length) AS total_chars
           FROM paragraphs GROUP BY page) AS m
  ON pages.page = m.page;

-- Pages whose kept text is also another page's (exact), or near another page's (MinHash: in a
-- cluster of datatrove's stage 3). Both are empty unless dedup=true.
CREATE VIEW exact_duplicates AS
SELECT page FROM (SELECT page, count(*) OVER (PARTITION BY text_hash) AS copies
                  FROM pages WHERE text_hash IS NOT NULL)
WHERE copies > 1;

CREATE VIEW numbered_bands AS
SELECT CAST(row_number() OVER (ORDER BY page) AS BIGINT) AS id, page, bands
FROM pages WHERE bands IS NOT NULL;

CREATE VIEW near_duplicates AS
SELECT numbered_bands.page
FROM (SELECT unnest(minhash_clusters(id, bands)) AS c FROM numbered_bands) AS clustered
JOIN numbered_bands ON clustered.c['id'] = numbered_bands.id;

-- R1. Headline
SELECT count(*) AS pages,
       coalesce(sum(bytes), 0) AS html_bytes,
       count(*) FILTER (WHERE failed) AS failed_pages,
       count(*) FILTER (WHERE kept_chars > 0) AS pages_with_text,
       coalesce(sum(kept_chars), 0) AS kept_chars,
       coalesce(sum(total_chars), 0) AS total_chars,
       coalesce(sum(paragraphs), 0) AS paragraphs,
       coalesce(sum(good_paragraphs), 0) AS good_paragraphs,
       (SELECT count(*) AS n FROM exact_duplicates) AS exact_duplicate_pages,
       (SELECT count(*) AS n FROM near_duplicates) AS near_duplicate_pages
FROM page_measures;

-- R2. Kept share per page, in steps of 0.05 (bin 20 is a share of exactly 1); pages without
--     paragraph text are not counted here (the headline counts them).
SELECT least(CAST(floor(CAST(kept_chars AS DOUBLE) / total_chars * 20) AS BIGINT), 20) AS bin,
       count(*) AS pages
FROM page_measures
WHERE total_chars > 0
GROUP BY 1
ORDER BY 1;

-- R3. Paragraph length histogram by final class: bin k holds lengths [2^k, 2^(k+1)), bin 0 also 0.
SELECT CAST(floor(log2(CAST(greatest(length, 1) AS DOUBLE))) AS BIGINT) AS bin,
       count(*) FILTER (WHERE class = 'good') AS good,
       count(*) FILTER (WHERE class = 'bad') AS bad
FROM paragraphs
GROUP BY 1
ORDER BY 1;

-- R4. Stopword density histogram by final class, in steps of 0.02 (bin 50 is a density of 1).
SELECT CAST(floor(stopword_density * 50) AS BIGINT) AS bin,
       count(*) FILTER (WHERE class = 'good') AS good,
       count(*) FILTER (WHERE class = 'bad') AS bad
FROM paragraphs
GROUP BY 1
ORDER BY 1;

-- R5. Link density histogram by final class, in steps of 0.05; jusText counts link characters
--     unstripped, so a density can exceed 1: bin 20 holds every density of 1 or more.
SELECT least(CAST(floor(link_density * 20) AS BIGINT), 20) AS bin,
       count(*) FILTER (WHERE class = 'good') AS good,
       count(*) FILTER (WHERE class = 'bad') AS bad
FROM paragraphs
GROUP BY 1
ORDER BY 1;

-- R6. Class distribution: context-free class x final class, paragraphs and characters.
SELECT context_free_class, class, count(*) AS paragraphs, sum(length) AS chars
FROM paragraphs
GROUP BY context_free_class, class
ORDER BY context_free_class, class;

-- R7. Fragmentation, as in Pomikalek's thesis table 2.11: a fragment is a run of consecutive
--     good paragraphs; per document counts every page, including those that keep nothing.
WITH good AS (
  SELECT page, length, idx - row_number() OVER (PARTITION BY page ORDER BY idx) AS run
  FROM paragraphs
  WHERE class = 'good'
), fragments AS (
  SELECT page, run, sum(length) AS chars FROM good GROUP BY page, run
)
SELECT (SELECT count(*) AS n FROM page_measures) AS documents,
       count(DISTINCT page) AS documents_with_text,
       count(*) AS fragments,
       avg(chars) AS avg_fragment_chars,
       median(chars) AS median_fragment_chars,
       count(*) / CAST((SELECT count(*) AS n FROM page_measures) AS DOUBLE) AS fragments_per_document
FROM fragments;

-- R8. Sites: the top ${sites} by pages.
SELECT m.site,
       count(*) AS pages,
       count(*) FILTER (WHERE m.kept_chars > 0) AS pages_with_text,
       sum(m.kept_chars) AS kept_chars,
       sum(m.total_chars) AS total_chars,
       sum(m.paragraphs) AS paragraphs,
       count(e.page) AS exact_duplicate_pages,
       count(n.page) AS near_duplicate_pages
FROM page_measures AS m
LEFT JOIN exact_duplicates AS e ON m.page = e.page
LEFT JOIN near_duplicates AS n ON m.page = n.page
GROUP BY m.site
ORDER BY pages DESC, m.site
LIMIT ${sites};

-- R9. Sample pages: ${samples} pages that keep some paragraphs and drop others, picked by a hash
--     of their URL (the same pages on every run), with every paragraph.
SELECT pages.url, pages.paragraphs
FROM pages
JOIN (SELECT page, url FROM page_measures
      WHERE good_paragraphs > 0 AND good_paragraphs < paragraphs
      ORDER BY content_hash(url), url
      LIMIT ${samples}) AS sample
  ON pages.page = sample.page
ORDER BY content_hash(pages.url), pages.url;

-- R10. datatrove's statistics of the kept texts (empty unless stats=true): per measure of its
--      DocStats, LineStats, ParagraphStats, WordStats and SentenceStats, the pages measured, the
--      mean, the standard deviation (n - 1, as datatrove's MetricStats), the minimum and the
--      maximum; `webtext stats` writes the same measures' summaries as datatrove's files.
SELECT e['key'] AS stat,
       count(*) AS pages,
       avg(e['value']) AS mean,
       stddev(e['value']) AS std_dev,
       min(e['value']) AS min,
       max(e['value']) AS max
FROM (SELECT unnest(map_entries(text_stats)) AS e FROM pages WHERE text_stats IS NOT NULL)
GROUP BY e['key']
ORDER BY stat;
