//! What datatrove's `BaseStats.run` and `StatsMerger` make of the measures: per group (the whole
//! corpus, histogram buckets, hosts, public suffixes) and per stat, a [`MetricStatsDict`]; a
//! task's files (`{group}/{stat}/{rank:05d}.json`) and the merged `metric.json` of each.

use std::collections::{BTreeMap, HashMap};

use super::blocks::Stats;
use super::metric::MetricStatsDict;
use super::python_float::{repr, round};
use super::values::Stat;
use crate::datatrove::url_filter::tldextract;

/// How a stat's values are grouped (datatrove's `GROUP`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Group {
    /// One key, "summary": the whole corpus.
    Summary,
    /// A key per value rounded to the histogram's digits, counting documents, characters and
    /// tokens (`{stat}`, `{stat}__chars`, `{stat}__tokens`).
    Histogram,
    /// A key per host name (tldextract's fqdn of the document's url).
    Fqdn,
    /// A key per public suffix.
    Suffix,
}

impl Group {
    /// datatrove's order when no groups are given.
    pub const ALL: [Group; 4] = [Group::Summary, Group::Histogram, Group::Fqdn, Group::Suffix];

    pub fn name(self) -> &'static str {
        match self {
            Group::Summary => "summary",
            Group::Histogram => "histogram",
            Group::Fqdn => "fqdn",
            Group::Suffix => "suffix",
        }
    }

    pub fn from_name(name: &str) -> Option<Group> {
        Group::ALL.into_iter().find(|g| g.name() == name)
    }

    /// The groups datatrove truncates to their most frequent keys (`TopKConfig.top_k_groups`).
    fn is_top_k(self) -> bool {
        matches!(self, Group::Fqdn | Group::Suffix)
    }
}

/// datatrove's `TopKConfig.top_k` default.
pub const DEFAULT_TOP_K: usize = 100_000;

/// A document as the statistics see it.
#[derive(Debug, Clone, Copy)]
pub struct StatsDocument<'a> {
    pub text: &'a str,
    /// The `url` metadata the host groups read (an empty one has no host).
    pub url: &'a str,
    /// The `token_count` metadata, if the documents carry it: the histogram's `__tokens`.
    pub token_count: Option<i64>,
}

/// One task's statistics: the documents it read, in order.
#[derive(Debug, Clone)]
pub struct StatsSummary {
    groups: Vec<(Group, StatTable)>,
    histogram_digits: usize,
}

/// A group's metrics by stat name, in the order the names first came.
#[derive(Debug, Clone, Default)]
struct StatTable {
    names: Vec<String>,
    index: HashMap<String, usize>,
    dicts: Vec<MetricStatsDict>,
}

impl StatTable {
    fn dict(&mut self, name: &str) -> &mut MetricStatsDict {
        let i = match self.index.get(name) {
            Some(&i) => i,
            None => {
                self.names.push(name.to_owned());
                self.dicts.push(MetricStatsDict::default());
                self.index.insert(name.to_owned(), self.dicts.len() - 1);
                self.dicts.len() - 1
            }
        };
        &mut self.dicts[i]
    }
}

impl StatsSummary {
    /// Statistics over `groups`, histogram values rounded to `histogram_digits` (datatrove: 3).
    pub fn new(groups: &[Group], histogram_digits: usize) -> StatsSummary {
        StatsSummary {
            groups: groups.iter().map(|&g| (g, StatTable::default())).collect(),
            histogram_digits,
        }
    }

    /// Adds one document's measures (`BaseStats.run`'s loop body).
    pub fn add(&mut self, document: StatsDocument<'_>, stats: &Stats) {
        let mut host = None;
        let digits = self.histogram_digits;
        let chars = document.text.chars().count() as i64;
        for (group, table) in &mut self.groups {
            let key_of = |value: Stat, host: &mut Option<tldextract::HostParts>| match group {
                Group::Summary => "summary".to_owned(),
                Group::Histogram => histogram_key(value, digits),
                Group::Fqdn => host
                    .get_or_insert_with(|| tldextract::extract(document.url))
                    .fqdn(),
                Group::Suffix => host
                    .get_or_insert_with(|| tldextract::extract(document.url))
                    .suffix
                    .clone(),
            };
            for (name, value) in stats {
                let key = key_of(*value, &mut host);
                if *group == Group::Histogram {
                    table.dict(name).entry(&key).add_value(Stat::Int(1));
                    table
                        .dict(&format!("{name}__chars"))
                        .entry(&key)
                        .add_value(Stat::Int(chars));
                    if let Some(tokens) = document.token_count {
                        table
                            .dict(&format!("{name}__tokens"))
                            .entry(&key)
                            .add_value(Stat::Int(tokens));
                    }
                } else {
                    table.dict(name).entry(&key).add_value(*value);
                }
            }
        }
    }

    /// The task's files as `BaseStats` writes them: `{group}/{stat}` and its metrics, the host
    /// groups cut to the `top_k` keys of the group's first stat.
    pub fn task_files(&self, top_k: usize) -> Vec<(String, MetricStatsDict)> {
        let mut files = Vec::new();
        for (group, table) in &self.groups {
            let top_keys: Option<Vec<String>> =
                (group.is_top_k() && !table.dicts.is_empty()).then(|| {
                    table.dicts[0]
                        .top_k(top_k)
                        .iter()
                        .map(|(k, _)| k.to_owned())
                        .collect()
                });
            for (name, dict) in table.names.iter().zip(&table.dicts) {
                let dict = match &top_keys {
                    Some(keys) => dict.select(keys),
                    None => dict.clone(),
                };
                files.push((format!("{}/{name}", group.name()), dict));
            }
        }
        files
    }

    /// `StatsMerger`'s `metric.json` of each `{group}/{stat}`, from the tasks' files in rank
    /// order: each metric as read back from its file, added key by key; the host groups cut to
    /// their `top_k` keys.
    pub fn merge_tasks(
        tasks: &[Vec<(String, MetricStatsDict)>],
        top_k: usize,
    ) -> BTreeMap<String, MetricStatsDict> {
        let mut merged: BTreeMap<String, MetricStatsDict> = BTreeMap::new();
        for files in tasks {
            for (path, dict) in files {
                merged.entry(path.clone()).or_default().merge_file(dict);
            }
        }
        for (path, dict) in merged.iter_mut() {
            let group = path.split('/').next().and_then(Group::from_name);
            if group.is_some_and(Group::is_top_k) {
                *dict = dict.top_k(top_k);
            }
        }
        merged
    }
}

/// The histogram's key of a value: `str(round(value, digits))`.
fn histogram_key(value: Stat, digits: usize) -> String {
    match value {
        Stat::Int(i) => i.to_string(),
        Stat::Float(f) => repr(round(f, digits)),
    }
}
