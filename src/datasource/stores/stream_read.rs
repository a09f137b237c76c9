//! A file that an object store hands over as a stream of bytes, read by a synchronous reader
//! (the WARC reader) without holding the file in memory: the download runs as a task, the reader
//! on a blocking thread, and a few chunks wait between them. Whatever the file's size, a file
//! being read holds at most [`CHUNKS_AHEAD`] chunks and one batch.
//!
//! The file is downloaded in ranges of [`RANGE_BYTES`], each its own request: a request's time
//! limit covers its whole body, so one request for a file of gigabytes would fail on any link
//! slower than the file's size over the limit, and a connection reset mid-file would end the
//! file. A range request that fails is retried by the store like any other. A server that does
//! not serve ranges (Python's http.server, many plain file servers) is read with one streamed
//! request instead.

use std::io::Read;

use std::sync::Arc;

use bytes::{Buf, Bytes};
use datafusion::common::{DataFusionError, Result};
use datafusion::object_store;
use datafusion::object_store::path::Path;
use datafusion::object_store::{
    GetOptions, GetRange, GetResultPayload, ObjectStore, ObjectStoreExt,
};
use futures::StreamExt;
use futures::stream::BoxStream;
use tokio::sync::mpsc::{Receiver, channel};

/// Chunks downloaded ahead of the reader.
pub(crate) const CHUNKS_AHEAD: usize = 4;

/// The bytes of one range request.
pub(crate) const RANGE_BYTES: u64 = 4 << 20;

/// Range requests in flight at once, so the next range is on its way while one is read.
const RANGES_IN_FLIGHT: usize = 2;

/// A file to read: a local file, or the bytes of an object store's file as they download.
pub(crate) enum Fetched {
    File(std::fs::File),
    Stream(BoxStream<'static, object_store::Result<Bytes>>),
}

/// Opens the file at `location` of `size` bytes: a local store's file as it is, any other store's
/// in ranges of [`RANGE_BYTES`] (the first request tells which it is).
pub(crate) async fn fetch(
    store: Arc<dyn ObjectStore>,
    location: Path,
    size: u64,
) -> object_store::Result<Fetched> {
    let first_end = size.min(RANGE_BYTES);
    let options = GetOptions {
        range: (size > 0).then_some(GetRange::Bounded(0..first_end)),
        ..Default::default()
    };
    let first = match store.get_opts(&location, options).await {
        Ok(first) => first,
        // A plain file server that answers a range with the whole file: one streamed GET, whose
        // time limit then covers the whole file.
        Err(object_store::Error::NotSupported { .. }) => {
            return Ok(Fetched::Stream(store.get(&location).await?.into_stream()));
        }
        Err(e) => return Err(e),
    };
    let first = match first.payload {
        GetResultPayload::File(..) => {
            // A local file (its range aside): read whole, from the start.
            return match store.get(&location).await?.payload {
                GetResultPayload::File(file, _) => Ok(Fetched::File(file)),
                GetResultPayload::Stream(stream) => Ok(Fetched::Stream(stream)),
            };
        }
        GetResultPayload::Stream(stream) if size <= first_end => {
            return Ok(Fetched::Stream(stream));
        }
        GetResultPayload::Stream(stream) => stream,
    };
    let rest = futures::stream::iter((first_end..size).step_by(RANGE_BYTES as usize))
        .map(move |start| {
            let (store, location) = (Arc::clone(&store), location.clone());
            async move {
                store
                    .get_range(&location, start..(start + RANGE_BYTES).min(size))
                    .await
            }
        })
        .buffered(RANGES_IN_FLIGHT);
    Ok(Fetched::Stream(first.chain(rest).boxed()))
}

/// Reads the bytes of `stream` with the reader `make` builds over them, on a blocking thread,
/// and gives the reader's items as a stream. Dropping the stream stops the reading and the
/// download.
pub(crate) fn read_in_background<T, F>(
    name: String,
    stream: BoxStream<'static, object_store::Result<Bytes>>,
    make: F,
) -> BoxStream<'static, Result<T>>
where
    F: FnOnce(Box<dyn Read + Send>) -> Box<dyn Iterator<Item = Result<T>>> + Send + 'static,
    T: Send + 'static,
{
    let (chunks_in, chunks_out) = channel(CHUNKS_AHEAD);
    tokio::spawn(async move {
        let mut stream = stream;
        while let Some(chunk) = stream.next().await {
            let failed = chunk.is_err();
            if chunks_in.send(chunk).await.is_err() || failed {
                break;
            }
        }
    });
    let (items_in, items_out) = channel(1);
    tokio::task::spawn_blocking(move || {
        let reader = ChunkReader {
            chunks: chunks_out,
            current: Bytes::new(),
        };
        let read = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            for item in make(Box::new(reader)) {
                if items_in.blocking_send(item).is_err() {
                    return;
                }
            }
        }));
        if read.is_err() {
            let _ = items_in.blocking_send(Err(DataFusionError::Execution(format!(
                "{name}: internal error while reading, please report it"
            ))));
        }
    });
    futures::stream::unfold(items_out, |mut items| async move {
        items.recv().await.map(|item| (item, items))
    })
    .boxed()
}

/// The bytes of the chunks as they arrive; a download error is the read's error.
struct ChunkReader {
    chunks: Receiver<object_store::Result<Bytes>>,
    current: Bytes,
}

impl Read for ChunkReader {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.current.is_empty() {
            match self.chunks.blocking_recv() {
                Some(Ok(chunk)) => self.current = chunk,
                Some(Err(e)) => return Err(std::io::Error::other(e)),
                None => return Ok(0),
            }
        }
        let n = buf.len().min(self.current.len());
        buf[..n].copy_from_slice(&self.current[..n]);
        self.current.advance(n);
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chunks(
        parts: Vec<object_store::Result<Bytes>>,
    ) -> BoxStream<'static, object_store::Result<Bytes>> {
        futures::stream::iter(parts).boxed()
    }

    fn lines(reader: Box<dyn Read + Send>) -> Box<dyn Iterator<Item = Result<String>>> {
        use std::io::BufRead;
        Box::new(
            std::io::BufReader::new(reader)
                .lines()
                .map(|line| line.map_err(|e| DataFusionError::Execution(e.to_string()))),
        )
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn chunks_are_read_in_order_across_their_boundaries() {
        let parts: Vec<_> = ["one\ntw", "o\n", "", "three"]
            .into_iter()
            .map(|s| Ok(Bytes::from(s)))
            .collect();
        let read: Vec<String> = read_in_background("f".into(), chunks(parts), lines)
            .map(|line| line.expect("no error"))
            .collect()
            .await;
        assert_eq!(read, ["one", "two", "three"]);
    }

    #[tokio::test]
    async fn a_stores_file_comes_in_ranges_and_a_local_one_whole() {
        use datafusion::object_store::PutPayload;
        let size = 2 * RANGE_BYTES as usize + 12345;
        let bytes: Vec<u8> = (0..size).map(|i| (i * 7 % 251) as u8).collect();
        let memory: Arc<dyn ObjectStore> = Arc::new(object_store::memory::InMemory::new());
        let path = Path::from("crawl.warc");
        memory
            .put(&path, PutPayload::from(bytes.clone()))
            .await
            .unwrap();
        let Ok(Fetched::Stream(stream)) = fetch(memory, path, size as u64).await else {
            panic!("a stream expected");
        };
        let chunks: Vec<Bytes> = stream.map(|c| c.unwrap()).collect().await;
        assert_eq!(
            chunks.iter().map(Bytes::len).collect::<Vec<_>>(),
            [RANGE_BYTES as usize, RANGE_BYTES as usize, 12345]
        );
        assert!(chunks.concat() == bytes);

        let folder = tempfile::tempdir().unwrap();
        std::fs::write(folder.path().join("a.warc"), &bytes[..100]).unwrap();
        let local: Arc<dyn ObjectStore> =
            Arc::new(object_store::local::LocalFileSystem::new_with_prefix(folder.path()).unwrap());
        let Ok(Fetched::File(mut file)) = fetch(local, Path::from("a.warc"), 100).await else {
            panic!("a file expected");
        };
        let mut read = Vec::new();
        file.read_to_end(&mut read).unwrap();
        assert_eq!(read, &bytes[..100]);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 1)]
    async fn a_download_error_is_the_readers_error() {
        let failure = object_store::Error::Generic {
            store: "S3",
            source: "connection reset".into(),
        };
        let parts = vec![Ok(Bytes::from("one\n")), Err(failure)];
        let read: Vec<_> = read_in_background("f".into(), chunks(parts), lines)
            .collect()
            .await;
        assert_eq!(read[0].as_ref().ok().map(String::as_str), Some("one"));
        let error = read[1].as_ref().expect_err("the error").to_string();
        assert!(error.contains("connection reset"), "{error}");
    }
}
