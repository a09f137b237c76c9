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
-- The text: datatrove_decode, datatrove's own decoding: the payload as UTF-8 when it is valid
-- UTF-8; otherwise decoded strictly with the charset cchardet guesses, the record dropped (NULL,
-- left out here) when the guess is UTF-8 or none, names no Python codec, or does not decode the
-- payload (about one record in eleven of the evaluation archive is not UTF-8, and datatrove drops
-- 89 of those 285).
--
-- A record without WARC-Identified-Payload-Type: datatrove reads it when libmagic says its payload
-- is HTML or XHTML (plain text for a conversion). `sniffed_html` is that test: by default the
-- HTTP Content-Type saying HTML, which needs no libmagic; `webtext fineweb` passes datatrove's own
-- where libmagic is installed (libmagic_mime loads the system's libmagic.so.1):
--   --param "sniffed_html=libmagic_mime(payload) IN ('text/html', 'application/xhtml+xml') OR (warc_type = 'conversion' AND libmagic_mime(payload) = 'text/plain')"
--
-- @param sniffed_html = http_content_type ILIKE '%html%'
-- The text is a plain Utf8 column, not a view: a window that keeps a file's rows in order (as
-- sql/fineweb.sql's trafilatura does) appends batches of views with their buffers, which would
-- keep every page of the file in memory.
SELECT * FROM (
SELECT record_id AS id, url, date, file, "offset", datatrove_decode(payload) AS html
FROM warc
WHERE warc_type IN ('response', 'conversion')
  AND (identified_payload_type IN ('text/html', 'application/xhtml+xml')
       OR (warc_type = 'conversion' AND identified_payload_type = 'text/plain')
       OR (identified_payload_type IS NULL AND (${sniffed_html})))
  AND payload <> X''
) WHERE html IS NOT NULL
