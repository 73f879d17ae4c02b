//! The library side of the `grundy` command line: the web playground's server, as a library so
//! that tests drive its router in-process (`grundy_cli::serve::router()`), and the plots of
//! Grundy sequences, which the Python package draws too (`grundy_cli::figure`).

pub mod figure;

#[cfg(feature = "serve")]
pub mod serve;
