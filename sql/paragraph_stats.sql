-- sql/paragraph_stats.sql: corpus statistics of jusText's paragraphs over a crawl.
--
-- Reads:  table `crawl` with columns `url` and `html`, given on the command line:
--
--             webtext sql --table crawl=CRAWL.parquet --file sql/paragraph_stats.sql
--
-- Writes: nothing to disk; prints five tables (use --format csv or jsonl for machines):
--   1. kept share by site (top 20 sites by paragraph characters)
--   2. class distribution: context-free class x final class, paragraphs and characters
--   3. paragraph length histogram (powers of two, in characters) by final class
--   4. stopword density histogram (steps of 0.05) by final class
--   5. fragmentation, as in Pomikalek's thesis table 2.11: a fragment is a run of consecutive
--      good paragraphs; average and median fragment length (characters) and fragments per
--      document (all documents of the crawl, including those that keep nothing)
--
-- Each page is parsed once: the first statement keeps the paragraph measures (not their text) in
-- an in-memory table that the others read.

CREATE TABLE paragraphs AS
SELECT url,
       regexp_replace(url, '^[A-Za-z]+://(www\.)?([^/:?#]+).*$', '\2') AS site,
       p['index'] AS idx,
       p['class'] AS class,
       p['context_free_class'] AS context_free_class,
       p['length'] AS length,
       p['stopword_density'] AS stopword_density
FROM (SELECT url, unnest(justext_paragraphs(html, 'English')) AS p FROM crawl);

-- 1. Kept share by site
SELECT site,
       count(DISTINCT url) AS pages,
       count(*) AS paragraphs,
       sum(CASE WHEN class = 'good' THEN length ELSE 0 END) AS kept_chars,
       sum(length) AS total_chars,
       round(sum(CASE WHEN class = 'good' THEN length ELSE 0 END) / CAST(sum(length) AS DOUBLE), 3) AS kept_share
FROM paragraphs
GROUP BY site
ORDER BY total_chars DESC, site
LIMIT 20;

-- 2. Class distribution
SELECT context_free_class,
       class,
       count(*) AS paragraphs,
       round(count(*) / CAST((SELECT count(*) AS n FROM paragraphs) AS DOUBLE), 3) AS share_of_paragraphs,
       sum(length) AS chars,
       round(sum(length) / CAST((SELECT sum(length) AS n FROM paragraphs) AS DOUBLE), 3) AS share_of_chars
FROM paragraphs
GROUP BY context_free_class, class
ORDER BY context_free_class, class;

-- 3. Paragraph length histogram: [2^k, 2^(k+1)) characters
SELECT CAST(power(2, k) AS BIGINT) AS length_from,
       CAST(power(2, k + 1) AS BIGINT) AS length_below,
       sum(CASE WHEN class = 'good' THEN 1 ELSE 0 END) AS good,
       sum(CASE WHEN class = 'bad' THEN 1 ELSE 0 END) AS bad
FROM (SELECT CAST(floor(log2(CAST(greatest(length, 1) AS DOUBLE))) AS BIGINT) AS k, class FROM paragraphs)
GROUP BY k
ORDER BY k;

-- 4. Stopword density histogram: [d, d + 0.05)
SELECT round(b * 0.05, 2) AS density_from,
       round(b * 0.05 + 0.05, 2) AS density_below,
       sum(CASE WHEN class = 'good' THEN 1 ELSE 0 END) AS good,
       sum(CASE WHEN class = 'bad' THEN 1 ELSE 0 END) AS bad
FROM (SELECT CAST(floor(stopword_density * 20) AS BIGINT) AS b, class FROM paragraphs)
GROUP BY b
ORDER BY b;

-- 5. Fragmentation
WITH good AS (
  SELECT url, length,
         idx - row_number() OVER (PARTITION BY url ORDER BY idx) AS run
  FROM paragraphs
  WHERE class = 'good'
), fragments AS (
  SELECT url, run, sum(length) AS chars FROM good GROUP BY url, run
)
SELECT (SELECT count(*) FROM crawl) AS documents,
       count(DISTINCT url) AS documents_with_text,
       count(*) AS fragments,
       round(avg(chars), 1) AS avg_fragment_chars,
       median(chars) AS median_fragment_chars,
       round(count(*) / CAST((SELECT count(*) FROM crawl) AS DOUBLE), 2) AS fragments_per_document
FROM fragments;
