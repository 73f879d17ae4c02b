//! `--plot FILE.svg` on `grundy seq` and `grundy analyze`: the file checks and the writing; the
//! pictures themselves are drawn by [`grundy::figure`].

use crate::error::CliError;
pub use grundy::figure::{Figure, MAX_POINTS};
use std::path::{Path, PathBuf};

/// Checks `--plot FILE` before any computation: the extension must be `.svg` and the directory
/// must exist. Returns the path to write.
pub fn target(file: &str) -> Result<PathBuf, CliError> {
    let path = PathBuf::from(file);
    let ext = path
        .extension()
        .and_then(|e| e.to_str())
        .map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => {}
        Some("png") => {
            return Err(CliError::usage(format!(
                "--plot {file}: PNG is not written (it would need a font shipped in the \
                 binary); expected a .svg file, e.g. convert with `rsvg-convert plot.svg -o plot.png`"
            )))
        }
        _ => {
            return Err(CliError::usage(format!(
                "--plot {file}: expected a file name ending in .svg (the extension selects the \
                 format; SVG is the one supported)"
            )))
        }
    }
    crate::files::existing_directory(&path, &format!("--plot {file}"))?;
    Ok(path)
}

/// Renders `fig` and writes it to `path` (checked by [`target`]).
pub fn write(path: &Path, fig: &Figure) -> Result<(), CliError> {
    let svg =
        grundy::figure::render_svg(fig).map_err(|e| CliError::Lib(grundy::Error::Internal(e)))?;
    grundy::file::write_atomically(path, svg.as_bytes()).map_err(|e| {
        CliError::usage(format!(
            "--plot {}: cannot write the file: {e}",
            path.display()
        ))
    })
}
