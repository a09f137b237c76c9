-- sql/clean.sql: a crawl table -> its cleaned text, one row per page that keeps any text.
--
-- Reads:  table `crawl` with columns `url` and `html` (string or binary; bytes are decoded as
--         jusText decodes them), given on the command line:
--
--             webtext sql --table crawl=CRAWL.parquet --file sql/clean.sql --output cleaned.parquet
--
-- Writes: the query's rows (to --output, or stdout): url, text (jusText 3.0.2, English stoplist,
--         default parameters; good paragraphs joined by '\n'), kept_share (share of the page's
--         paragraph characters kept), paragraphs, good_paragraphs. Pages where jusText keeps
--         nothing, or cannot process the page (NULL), are left out.
--
-- Change the language or parameters in the justext_extract call, e.g.
-- justext_extract(html, 'German', 'length_low=50, max_link_density=0.25').

SELECT url,
       e['text'] AS text,
       e['kept_share'] AS kept_share,
       e['paragraphs'] AS paragraphs,
       e['good_paragraphs'] AS good_paragraphs
FROM (SELECT url, justext_extract(html, 'English') AS e FROM crawl)
WHERE e['kept_chars'] > 0;
