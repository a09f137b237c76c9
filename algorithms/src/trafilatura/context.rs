//! What one extraction carries from step to step.

use super::dedup::DedupCache;
use super::options::{Focus, Options};

/// What the steps of one extraction share: the settings in force (the recall retry changes the
/// focus) and the de-duplication cache, when de-duplication is on.
pub struct Ctx<'a> {
    pub opts: Options,
    formatting: bool,
    focus: Focus,
    pub cache: Option<&'a mut DedupCache>,
}

impl<'a> Ctx<'a> {
    pub(super) fn new(opts: &Options, cache: Option<&'a mut DedupCache>) -> Self {
        Ctx {
            formatting: opts.formatting(),
            focus: opts.focus(),
            opts: opts.clone(),
            cache: if opts.deduplicate { cache } else { None },
        }
    }

    /// The recall retry's change of focus.
    pub(super) fn set_focus(&mut self, focus: Focus) {
        self.focus = focus;
    }

    pub fn focus(&self) -> Focus {
        self.focus
    }

    pub fn formatting(&self) -> bool {
        self.formatting
    }

    pub fn precision(&self) -> bool {
        self.focus == Focus::Precision
    }
}
