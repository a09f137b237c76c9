//! How much memory a session's queries may hold, and where they spill beyond it.
//!
//! DataFusion runs without a limit unless its runtime is given a memory pool: a sort, a
//! `GROUP BY` or a join larger than memory then grows until the process is killed. With a pool,
//! those operators write what does not fit to spill files and merge them back, and an operator
//! that cannot spill (an aggregate without `GROUP BY`, such as `duplicate_ngrams` or
//! `minhash_clusters` over a whole table, whose state DataFusion accounts from
//! `Accumulator::size`) fails with a "Resources exhausted" error instead of growing past the
//! limit.
//!
//! ```rust,ignore
//! use datafusion::execution::runtime_env::RuntimeEnvBuilder;
//! use datafusion_webtext::memory::MemorySettings;
//!
//! let settings = MemorySettings { limit: Some(8 << 30), spill_dir: Some("/scratch".into()) };
//! let runtime = settings.apply(RuntimeEnvBuilder::new()).build_arc()?;
//! ```

use std::num::NonZeroUsize;
use std::path::PathBuf;
use std::sync::Arc;

use datafusion::common::Result;
use datafusion::execution::memory_pool::{
    FairSpillPool, MemoryConsumer, MemoryLimit, MemoryPool, MemoryReservation, TrackConsumersPool,
};
use datafusion::execution::runtime_env::RuntimeEnvBuilder;

/// The memory pool and spill folder of a session.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemorySettings {
    /// Bytes the session's operators may hold together; `None`: [`default_memory_limit`].
    pub limit: Option<usize>,
    /// Where spill files go (a private folder is made inside it for each session); `None`: the
    /// system's temporary directory.
    pub spill_dir: Option<PathBuf>,
}

impl MemorySettings {
    /// The limit in force: the one set, or the default.
    pub fn effective_limit(&self) -> usize {
        self.limit.unwrap_or_else(default_memory_limit)
    }

    /// `builder` with a memory pool of the limit and the spill folder. The pool is DataFusion's
    /// fair spill pool (the operators that can spill share what the others leave, so a sort and a
    /// `GROUP BY` running at the same time both keep a share), wrapped to name the largest
    /// consumers in the error of an allocation that does not fit.
    pub fn apply(&self, builder: RuntimeEnvBuilder) -> RuntimeEnvBuilder {
        let builder = builder.with_memory_pool(self.pool());
        match &self.spill_dir {
            Some(dir) => builder.with_temp_file_path(dir),
            None => builder,
        }
    }

    /// The memory pool [`apply`](Self::apply) gives a runtime: one per process that shares it
    /// between several runtimes (a cluster executor's tasks), so that they hold the limit
    /// together.
    pub fn pool(&self) -> Arc<dyn MemoryPool> {
        let pool = TrackConsumersPool::new(
            FairSpillPool::new(self.effective_limit()),
            NonZeroUsize::new(5).unwrap_or(NonZeroUsize::MIN),
        );
        Arc::new(BoundedBuffersNeverRefused(pool))
    }
}

/// The operators whose buffers are bounded by the number of partitions and the batch size, and
/// that cannot spill: `RepartitionExec`'s channels (its channels' gate holds the inputs back once
/// every output has a batch waiting) and `SortPreservingMergeExec`'s cursors (one batch per
/// input, and the one it builds).
const BOUNDED_BUFFERS: [&str; 2] = ["RepartitionExec", "SortPreservingMergeExec"];

/// A pool that never refuses the [operators with bounded buffers](BOUNDED_BUFFERS): refused,
/// `RepartitionExec` takes its spill path, where in DataFusion 55.2 a grouped aggregation on two or
/// more partitions that spills can stop for good with every thread parked (about one run in two
/// of the memory-limit test's `GROUP BY` at 64 MiB; in none of three runs on one partition), and
/// `SortPreservingMergeExec` fails the query, as it did now and then when the sorts below it had
/// taken the whole pool while spilling (the memory-limit test's `ORDER BY` at 64 MiB, under load).
/// What they hold is still counted, so the others' share shrinks by it.
#[derive(Debug)]
struct BoundedBuffersNeverRefused<P>(P);

impl<P: MemoryPool> std::fmt::Display for BoundedBuffersNeverRefused<P> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Display::fmt(&self.0, f)
    }
}

impl<P: MemoryPool> MemoryPool for BoundedBuffersNeverRefused<P> {
    fn name(&self) -> &str {
        self.0.name()
    }

    fn register(&self, consumer: &MemoryConsumer) {
        self.0.register(consumer)
    }

    fn unregister(&self, consumer: &MemoryConsumer) {
        self.0.unregister(consumer)
    }

    fn grow(&self, reservation: &MemoryReservation, additional: usize) {
        self.0.grow(reservation, additional)
    }

    fn shrink(&self, reservation: &MemoryReservation, shrink: usize) {
        self.0.shrink(reservation, shrink)
    }

    fn try_grow(&self, reservation: &MemoryReservation, additional: usize) -> Result<()> {
        let name = reservation.consumer().name();
        if BOUNDED_BUFFERS
            .iter()
            .any(|bounded| name.starts_with(bounded))
        {
            self.0.grow(reservation, additional);
            return Ok(());
        }
        self.0.try_grow(reservation, additional)
    }

    fn reserved(&self) -> usize {
        self.0.reserved()
    }

    fn memory_limit(&self) -> MemoryLimit {
        self.0.memory_limit()
    }
}

/// Half of the memory this process can have: the machine's, or its cgroup's limit where that is
/// lower (a container, a Slurm or Kubernetes job). Half, because the pool counts what the
/// operators hold, not the batches in flight, the pages being parsed or the allocator's slack.
pub fn default_memory_limit() -> usize {
    share_of_memory(0.5)
}

/// `fraction` of the memory this process can have (the machine's, or its cgroup's limit where
/// that is lower), in bytes.
pub fn share_of_memory(fraction: f64) -> usize {
    let machine = meminfo_total().unwrap_or(8 << 30);
    let available = cgroup_limit().map_or(machine, |limit| limit.min(machine));
    (available as f64 * fraction) as usize
}

fn meminfo_total() -> Option<u64> {
    let meminfo = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = meminfo.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    kib.checked_mul(1024)
}

/// The memory limit of the process's cgroup (v2's `memory.max`, v1's `memory.limit_in_bytes`),
/// when it has one.
fn cgroup_limit() -> Option<u64> {
    let own = std::fs::read_to_string("/proc/self/cgroup").unwrap_or_default();
    let v2_path = own
        .lines()
        .find_map(|l| l.strip_prefix("0::"))
        .unwrap_or("/");
    let candidates = [
        format!("/sys/fs/cgroup{}/memory.max", v2_path.trim_end_matches('/')),
        "/sys/fs/cgroup/memory.max".to_owned(),
        "/sys/fs/cgroup/memory/memory.limit_in_bytes".to_owned(),
    ];
    candidates
        .iter()
        .filter_map(|path| std::fs::read_to_string(path).ok())
        .filter_map(|text| text.trim().parse::<u64>().ok())
        // v1 says "no limit" with a number near 2^63.
        .find(|&bytes| bytes < 1 << 60)
}

/// A size as people write it: `123456` (bytes), `512K`, `64M`, `2G`, `1.5G`, `1T`, with an
/// optional `B` or `iB` (`64MB`, `64MiB`); the units are binary (1K = 1024 bytes) either way.
pub fn parse_size(text: &str) -> Result<usize, String> {
    let trimmed = text.trim();
    let lower = trimmed.to_ascii_lowercase();
    let without_b = lower
        .strip_suffix("ib")
        .or_else(|| lower.strip_suffix('b'))
        .unwrap_or(&lower);
    let (number, shift) = match without_b.chars().last() {
        Some('k') => (&without_b[..without_b.len() - 1], 10),
        Some('m') => (&without_b[..without_b.len() - 1], 20),
        Some('g') => (&without_b[..without_b.len() - 1], 30),
        Some('t') => (&without_b[..without_b.len() - 1], 40),
        _ => (without_b, 0),
    };
    let invalid =
        || format!("'{text}' is not a size (bytes, or a number with K, M, G or T: 64M, 1.5G)");
    let value: f64 = number.trim().parse().map_err(|_| invalid())?;
    if !value.is_finite() || value < 0.0 {
        return Err(invalid());
    }
    let bytes = value * (1u64 << shift) as f64;
    if bytes >= usize::MAX as f64 {
        return Err(format!("'{text}' is too large"));
    }
    Ok(bytes as usize)
}

/// A size for people: `64 MiB`, `11.7 GiB`.
pub fn format_size(bytes: usize) -> String {
    let units = ["bytes", "KiB", "MiB", "GiB", "TiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 || value.fract() == 0.0 {
        format!("{value:.0} {}", units[unit])
    } else {
        format!("{value:.1} {}", units[unit])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_in_binary_units_with_or_without_b() {
        assert_eq!(parse_size("123456"), Ok(123_456));
        assert_eq!(parse_size("64M"), Ok(64 << 20));
        assert_eq!(parse_size("64MB"), Ok(64 << 20));
        assert_eq!(parse_size("64MiB"), Ok(64 << 20));
        assert_eq!(parse_size("2g"), Ok(2 << 30));
        assert_eq!(parse_size("1.5G"), Ok(3 << 29));
        assert_eq!(parse_size(" 512K "), Ok(512 << 10));
        for bad in ["", "M", "-1G", "sixty", "1.5.2G", "NaN"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_format_for_people() {
        assert_eq!(format_size(64 << 20), "64 MiB");
        assert_eq!(format_size(3 << 29), "1.5 GiB");
        assert_eq!(format_size(1000), "1000 bytes");
    }

    #[test]
    fn the_default_is_half_of_what_the_machine_or_its_cgroup_has() {
        let machine = meminfo_total().unwrap();
        let limit = default_memory_limit() as u64;
        assert!(limit <= machine / 2 && limit > 0, "{limit} of {machine}");
    }
}
