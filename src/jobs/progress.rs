//! The progress bar of long jobs: items/s, MB/s and ETA on stderr, drawn only on a terminal.

use std::io::IsTerminal;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

pub struct Progress {
    bar: ProgressBar,
    start: Instant,
    unit: &'static str,
    pages: u64,
    bytes: u64,
    skipped: u64,
}

impl Progress {
    /// A bar counting `total` items named `unit` ("pages", "documents"; a spinner when the total is
    /// unknown); hidden when stderr is not a terminal, so logs of batch jobs stay clean.
    pub fn new(total: Option<u64>, unit: &'static str) -> Self {
        let bar = if !std::io::stderr().is_terminal() {
            ProgressBar::hidden()
        } else if let Some(total) = total {
            let bar = ProgressBar::new(total);
            if let Ok(style) = ProgressStyle::with_template(&format!(
                "{{elapsed_precise}} [{{wide_bar}}] {{pos}}/{{len}} {unit}  {{msg}}  ETA {{eta}}"
            )) {
                bar.set_style(style.progress_chars("=> "));
            }
            bar
        } else {
            ProgressBar::new_spinner()
        };
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress {
            bar,
            start: Instant::now(),
            unit,
            pages: 0,
            bytes: 0,
            skipped: 0,
        }
    }

    pub fn add(&mut self, pages: u64, bytes: u64) {
        self.pages += pages;
        self.bytes += bytes;
        self.bar.inc(pages);
        let seconds = self.elapsed().as_secs_f64().max(1e-9);
        let skipped = match self.skipped {
            0 => String::new(),
            n => format!("  ({n} skipped: done before)"),
        };
        self.bar.set_message(format!(
            "{:.0} {}/s  {:.1} MB/s{skipped}",
            self.pages as f64 / seconds,
            self.unit,
            self.bytes as f64 / 1e6 / seconds
        ));
    }

    /// Counts `items` done by an earlier run: on the bar, apart from the rate and the ETA.
    pub fn skip(&mut self, items: u64) {
        if items == 0 {
            return;
        }
        self.skipped += items;
        self.bar.inc(items);
        self.bar.reset_eta();
        self.bar
            .set_message(format!("{} skipped: done before", self.skipped));
    }

    /// A message beside the bar or spinner (what the job is doing).
    pub fn say(&self, message: &str) {
        self.bar.set_message(message.to_owned());
    }

    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
