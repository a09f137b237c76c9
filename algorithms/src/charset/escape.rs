//! uchardet's escape-sequence prober: text of 7-bit bytes with ESC or `~{` may be HZ or ISO-2022.

use super::multi_byte::{CodingStateMachine, ITS_ME};
use super::tables::{HZ, ISO2022_CN, ISO2022_JP, ISO2022_KR};

pub(super) struct EscapeProber {
    machines: [CodingStateMachine; 4],
    found: Option<&'static str>,
}

impl EscapeProber {
    pub(super) fn new() -> Self {
        EscapeProber {
            machines: [
                CodingStateMachine::new(&HZ),
                CodingStateMachine::new(&ISO2022_CN),
                CodingStateMachine::new(&ISO2022_JP),
                CodingStateMachine::new(&ISO2022_KR),
            ],
            found: None,
        }
    }

    /// The charset whose machine recognised an escape sequence, once one has; the machines run
    /// last to first on each byte, as uchardet runs them.
    pub(super) fn feed(&mut self, data: &[u8]) -> Option<&'static str> {
        if self.found.is_some() {
            return self.found;
        }
        for &byte in data {
            for machine in self.machines.iter_mut().rev() {
                if machine.next(byte) == ITS_ME {
                    self.found = Some(machine.model().name);
                    return self.found;
                }
            }
        }
        None
    }
}
