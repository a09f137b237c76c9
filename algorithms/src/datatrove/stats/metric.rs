//! datatrove's `MetricStats` and `MetricStatsDict` (`datatrove/utils/stats.py`): a metric's
//! total, count, mean, extremes and variance, merged with Chan's parallel formula in the order
//! datatrove merges them, so that the floats come out bit for bit, and written as its `to_dict`.

use super::python_float::json_float;
use super::values::Stat;

/// A number as Python keeps it: a total, minimum or maximum of integer statistics stays an
/// integer (and is written without ".0"); anything divided is a float.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Number {
    Int(i64),
    Float(f64),
}

impl Number {
    pub fn as_f64(self) -> f64 {
        match self {
            Number::Int(i) => i as f64,
            Number::Float(f) => f,
        }
    }

    fn add(self, other: Number) -> Number {
        match (self, other) {
            (Number::Int(a), Number::Int(b)) => Number::Int(a + b),
            (a, b) => Number::Float(a.as_f64() + b.as_f64()),
        }
    }

    /// Python's `min(a, b)`: `a` unless `b < a`.
    fn min(self, other: Number) -> Number {
        if other.as_f64() < self.as_f64() {
            other
        } else {
            self
        }
    }

    /// Python's `max(a, b)`: `a` unless `b > a`.
    fn max(self, other: Number) -> Number {
        if other.as_f64() > self.as_f64() {
            other
        } else {
            self
        }
    }

    fn json(self) -> String {
        match self {
            Number::Int(i) => i.to_string(),
            Number::Float(f) => json_float(f),
        }
    }
}

impl From<Stat> for Number {
    fn from(stat: Stat) -> Number {
        match stat {
            Stat::Int(i) => Number::Int(i),
            Stat::Float(f) => Number::Float(f),
        }
    }
}

/// One metric over the documents added to it, as datatrove's `MetricStats`.
#[derive(Debug, Clone, PartialEq)]
pub struct MetricStats {
    pub total: Number,
    /// An integer, except after `from_dict` took it from a float total (a count left out of
    /// the file because it equalled the total), as Python's arithmetic then carries it.
    pub n: Number,
    pub mean: f64,
    pub min: Number,
    pub max: Number,
    running_variance: f64,
    /// "doc" for an empty one; "task" once a value was added (datatrove's `+=` of a number
    /// makes a one-value `MetricStats` of unit "task", which the sum keeps).
    task_unit: bool,
}

impl Default for MetricStats {
    fn default() -> Self {
        MetricStats {
            total: Number::Int(0),
            n: Number::Int(0),
            mean: 0.0,
            min: Number::Float(f64::INFINITY),
            max: Number::Float(f64::NEG_INFINITY),
            running_variance: 0.0,
            task_unit: false,
        }
    }
}

impl MetricStats {
    /// datatrove's `stats += value`: this plus a one-value `MetricStats` of `value`.
    pub fn add_value(&mut self, value: Stat) {
        let value = Number::from(value);
        let one = MetricStats {
            total: value,
            n: Number::Int(1),
            mean: value.as_f64(),
            min: value,
            max: value,
            running_variance: 0.0,
            task_unit: true,
        };
        self.merge(&one);
    }

    /// datatrove's `MetricStats.__add__`: Chan's parallel formula for mean and variance.
    pub fn merge(&mut self, other: &MetricStats) {
        let n = self.n.add(other.n);
        let (mut mean, mut running_variance) = (0.0, 0.0);
        if n.as_f64() > 0.0 {
            let (n1, n2, nf) = (self.n.as_f64(), other.n.as_f64(), n.as_f64());
            mean = (n1 * self.mean + n2 * other.mean) / nf;
            let delta = self.mean - other.mean;
            running_variance =
                self.running_variance + other.running_variance + (delta * delta * n1 * n2) / nf;
        }
        *self = MetricStats {
            total: self.total.add(other.total),
            n,
            mean,
            min: self.min.min(other.min),
            max: self.max.max(other.max),
            running_variance,
            task_unit: self.task_unit || other.task_unit,
        };
    }

    /// `to_dict` keeps the count only when it says more than the total: more than one value,
    /// not all of them 1.
    fn writes_n(&self) -> bool {
        self.n.as_f64() > 1.0 && self.n.as_f64() != self.total.as_f64()
    }

    /// Whether the values differ (`mean != max or mean != min`).
    fn varies(&self) -> bool {
        self.mean != self.max.as_f64() || self.mean != self.min.as_f64()
    }

    pub fn variance(&self) -> f64 {
        if self.n.as_f64() > 1.0 {
            self.running_variance / (self.n.as_f64() - 1.0)
        } else {
            0.0
        }
    }

    pub fn standard_deviation(&self) -> f64 {
        self.variance().sqrt()
    }

    /// What datatrove's `StatsMerger` reads back from a task's file: `MetricStats.from_dict` of
    /// [`to_json`](Self::to_json)'s fields, which leaves out a count that equals the total, a mean
    /// of 1 and the variance of equal values, and keeps the variance rather than its running sum.
    pub fn reloaded(&self) -> MetricStats {
        let total = self.total.as_f64();
        if total == 0.0 {
            // to_dict() gives the number 0; from_dict(0) a one-value metric of 0.
            return MetricStats {
                total: Number::Int(0),
                n: Number::Int(1),
                mean: 0.0,
                min: Number::Int(0),
                max: Number::Int(0),
                running_variance: 0.0,
                task_unit: true,
            };
        }
        let varies = self.varies();
        let mean_written = self.mean != 1.0 || varies;
        // from_dict: a missing mean is the integer 1, a missing count the total (mean 1) or 1,
        // missing extremes the mean.
        let mean = if mean_written {
            Number::Float(self.mean)
        } else {
            Number::Int(1)
        };
        let n = if self.writes_n() {
            self.n
        } else if mean.as_f64() == 1.0 {
            self.total
        } else {
            Number::Int(1)
        };
        let (min, max, variance) = if varies {
            (self.min, self.max, self.variance())
        } else {
            (mean, mean, 0.0)
        };
        MetricStats {
            total: self.total,
            n,
            mean: mean.as_f64(),
            min,
            max,
            running_variance: variance * (n.as_f64() - 1.0),
            task_unit: self.task_unit,
        }
    }

    /// datatrove's `to_dict()` as `json.dump` writes it: `0` for a zero total, the bare total
    /// when nothing else is worth saying, else an object of the fields that say something.
    pub fn to_json(&self) -> String {
        if self.total.as_f64() == 0.0 {
            return "0".into();
        }
        let mut fields = vec![("total", self.total.json())];
        if self.writes_n() {
            fields.push(("n", self.n.json()));
        }
        let varies = self.varies();
        if self.mean != 1.0 || varies {
            fields.push(("mean", json_float(self.mean)));
        }
        if varies {
            fields.push(("variance", json_float(self.variance())));
            fields.push(("std_dev", json_float(self.standard_deviation())));
            fields.push(("min", self.min.json()));
            fields.push(("max", self.max.json()));
        }
        if self.task_unit {
            fields.push(("unit", "\"task\"".into()));
        }
        if fields.len() == 1 {
            return fields.swap_remove(0).1;
        }
        let inner: Vec<String> = fields
            .iter()
            .map(|(name, value)| format!("\"{name}\": {value}"))
            .collect();
        format!("{{{}}}", inner.join(", "))
    }
}

/// datatrove's `MetricStatsDict`: a metric per key (a group's value: "summary", a domain, a
/// histogram bucket), in the order the keys first came.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MetricStatsDict {
    keys: Vec<String>,
    index: std::collections::HashMap<String, usize>,
    stats: Vec<MetricStats>,
}

impl MetricStatsDict {
    /// The metric of `key`, made empty if new.
    pub fn entry(&mut self, key: &str) -> &mut MetricStats {
        let i = match self.index.get(key) {
            Some(&i) => i,
            None => {
                self.keys.push(key.to_owned());
                self.stats.push(MetricStats::default());
                self.index.insert(key.to_owned(), self.stats.len() - 1);
                self.stats.len() - 1
            }
        };
        &mut self.stats[i]
    }

    pub fn len(&self) -> usize {
        self.keys.len()
    }

    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    pub fn iter(&self) -> impl Iterator<Item = (&str, &MetricStats)> {
        self.keys.iter().map(String::as_str).zip(&self.stats)
    }

    /// Adds every metric of `other`, key by key in its order, as datatrove's `StatsMerger` adds a
    /// task's file: each metric as read back from it ([`MetricStats::reloaded`]).
    pub fn merge_file(&mut self, other: &MetricStatsDict) {
        for (key, stats) in other.iter() {
            self.entry(key).merge(&stats.reloaded());
        }
    }

    /// The `k` keys with the most values, as `heapq.nlargest(k, keys, key=n)` orders them: by
    /// count, descending, the earlier key first among equal counts.
    pub fn top_k(&self, k: usize) -> MetricStatsDict {
        let mut order: Vec<usize> = (0..self.keys.len()).collect();
        order.sort_by(|&a, &b| {
            let (na, nb) = (self.stats[a].n.as_f64(), self.stats[b].n.as_f64());
            nb.total_cmp(&na).then(a.cmp(&b))
        });
        let mut top = MetricStatsDict::default();
        for i in order.into_iter().take(k) {
            *top.entry(&self.keys[i]) = self.stats[i].clone();
        }
        top
    }

    /// The metrics of `keys`, in that order (a key it lacks gets an empty metric, as datatrove's
    /// defaultdict gives one).
    pub fn select(&self, keys: &[String]) -> MetricStatsDict {
        let mut selected = MetricStatsDict::default();
        for key in keys {
            let stats = self.index.get(key).map(|&i| self.stats[i].clone());
            *selected.entry(key) = stats.unwrap_or_default();
        }
        selected
    }

    /// `json.dump(stats.to_dict(), f)`: keys in order, escaped as `json.dump` escapes them
    /// (non-ASCII as \uXXXX).
    pub fn to_json(&self) -> String {
        let entries: Vec<String> = self
            .iter()
            .map(|(key, stats)| format!("{}: {}", json_string(key), stats.to_json()))
            .collect();
        format!("{{{}}}", entries.join(", "))
    }
}

/// A string as Python's `json.dumps` writes it with `ensure_ascii=True`.
pub fn json_string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if (c as u32) < 0x20 || (c as u32) > 0x7e => {
                let mut units = [0u16; 2];
                for unit in c.encode_utf16(&mut units) {
                    out.push_str(&format!("\\u{unit:04x}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn of(values: &[Stat]) -> MetricStats {
        let mut stats = MetricStats::default();
        for &value in values {
            stats.add_value(value);
        }
        stats
    }

    #[test]
    fn to_json_says_what_datatrove_says() {
        // Python, datatrove 0.10.1: s = MetricStats(); s += v for each; json.dumps(s.to_dict()).
        assert_eq!(of(&[]).to_json(), "0");
        assert_eq!(of(&[Stat::Int(0), Stat::Int(0)]).to_json(), "0");
        assert_eq!(
            of(&[Stat::Int(1), Stat::Int(1), Stat::Int(1)]).to_json(),
            "{\"total\": 3, \"unit\": \"task\"}"
        );
        assert_eq!(
            of(&[Stat::Int(5)]).to_json(),
            "{\"total\": 5, \"mean\": 5.0, \"unit\": \"task\"}"
        );
        assert_eq!(
            of(&[Stat::Int(2), Stat::Int(4)]).to_json(),
            "{\"total\": 6, \"n\": 2, \"mean\": 3.0, \"variance\": 2.0, \"std_dev\": 1.4142135623730951, \
             \"min\": 2, \"max\": 4, \"unit\": \"task\"}"
        );
        assert_eq!(
            of(&[Stat::Float(0.5), Stat::Float(0.25)]).to_json(),
            "{\"total\": 0.75, \"n\": 2, \"mean\": 0.375, \"variance\": 0.03125, \"std_dev\": \
             0.1767766952966369, \"min\": 0.25, \"max\": 0.5, \"unit\": \"task\"}"
        );
    }

    #[test]
    fn the_top_keys_come_by_count_then_first_seen() {
        let mut dict = MetricStatsDict::default();
        for key in ["a", "b", "b", "c", "c", "d"] {
            dict.entry(key).add_value(Stat::Int(1));
        }
        let top_k = dict.top_k(3);
        let top: Vec<&str> = top_k.iter().map(|(k, _)| k).collect();
        assert_eq!(top, ["b", "c", "a"]);
        assert_eq!(json_string("é\"x"), "\"\\u00e9\\\"x\"");
    }
}
