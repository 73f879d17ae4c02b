//! The library side of the `grundy` command line: the web playground's server, as a library so
//! that tests drive its router in-process (`grundy_cli::serve::router()`).

#[cfg(feature = "serve")]
pub mod serve;
