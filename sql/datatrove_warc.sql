-- sql/datatrove_warc.sql: the documents datatrove 0.10.1's WarcReader makes of WARC files, as the
-- crawl table sql/fineweb.sql reads (id, url, date, file, offset, html).
--
--   webtext sql --table warc='crawl/*.warc.gz' --file sql/datatrove_warc.sql --output crawl.parquet
--
-- (`webtext fineweb` runs this file over its WARC input as the view `crawl`.)
--
-- The records it reads: responses (and WET conversions) whose WARC-Identified-Payload-Type is
-- HTML or XHTML (plain text for conversions), with a payload; id is the WARC-Record-ID, and the
-- payload is de-chunked and content-decoded as warcio's content_stream() gives it.
--
-- The text: the payload decoded as UTF-8 when it is valid UTF-8, as datatrove decodes it. Where
-- it is not (about one record in eleven of the evaluation archive), datatrove guesses a charset
-- with cchardet and drops the record when the guess is UTF-8 or names no Python codec; this file
-- decodes those pages as the page functions do, with the HTTP charset where the page names
-- none (decode_html), so their text can differ from datatrove's and they are never dropped. A
-- record without WARC-Identified-Payload-Type, which datatrove sniffs with libmagic, is read when
-- its HTTP Content-Type says HTML.
-- The text is a plain Utf8 column, not a view: a window that keeps a file's rows in order (as
-- sql/fineweb.sql's trafilatura does) appends batches of views with their buffers, which would
-- keep every page of the file in memory.
SELECT record_id AS id, url, date, file, "offset",
       arrow_cast(coalesce(TRY_CAST(payload AS VARCHAR), decode_html(payload, http_charset)), 'Utf8') AS html
FROM warc
WHERE warc_type IN ('response', 'conversion')
  AND (identified_payload_type IN ('text/html', 'application/xhtml+xml')
       OR (warc_type = 'conversion' AND identified_payload_type = 'text/plain')
       OR (identified_payload_type IS NULL AND http_content_type ILIKE '%html%'))
  AND payload <> X''
