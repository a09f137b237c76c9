-- Converts WARC files into the crawl table the other pipelines read (url, date, record_id, file,
-- offset, http_charset, html): the HTML responses (2xx), the page as the HTTP payload after
-- de-chunking and content decoding.
--   webtext sql --table warc='crawl/*.warc.gz' --file sql/warc_to_parquet.sql --output crawl.parquet
-- Add OPTIONS through read_warc instead of --table to skip faults of the archives:
--   ... FROM read_warc('crawl/*.warc.gz', 'on_error=skip') ...
SELECT url, date, record_id, file, "offset", http_charset, payload AS html
FROM warc
WHERE warc_type = 'response'
  AND http_status BETWEEN 200 AND 299
  AND http_content_type ILIKE '%html%'
