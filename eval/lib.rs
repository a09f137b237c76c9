//! Nothing: the package's programs are its examples (parity checks and speed runs).
