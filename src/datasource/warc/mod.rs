//! WARC and WET files as DataFusion reads them: the file format (`STORED AS WARC`), its scan's
//! batches, the filters a scan applies to headers alone, the tables of paths and the
//! `read_warc()` table function.

pub(crate) mod batches;
pub(crate) mod format;
pub(crate) mod head_filter;
pub(crate) mod read_warc;
pub(crate) mod table;
