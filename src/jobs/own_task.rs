//! Streams driven by a task of their own.

use futures::StreamExt;

/// `stream` driven by a task of its own, its batches handed over two at a time. A plan of one
/// partition is otherwise run by whoever polls it: the shards a sharded run works on side by side
/// (each planned on one partition to keep its records in order) would take turns on one core.
pub fn in_own_task(
    stream: datafusion::execution::SendableRecordBatchStream,
) -> datafusion::execution::SendableRecordBatchStream {
    use datafusion::physical_plan::stream::RecordBatchReceiverStream;
    let mut builder = RecordBatchReceiverStream::builder(stream.schema(), 2);
    let sender = builder.tx();
    builder.spawn(async move {
        let mut stream = stream;
        while let Some(batch) = stream.next().await {
            if sender.send(batch).await.is_err() {
                break;
            }
        }
        Ok(())
    });
    builder.build()
}
