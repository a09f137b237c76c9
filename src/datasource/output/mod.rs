//! Output that appears complete or not at all: the folders of shards of a job (their plan, the
//! operator that writes them where the rows are made, the manifest), a result written as one
//! file, and the commit of a file under its final name.

pub mod commit;
pub mod one_file;
pub(crate) mod shard_plan;
pub mod shard_writer;
pub mod shards;
