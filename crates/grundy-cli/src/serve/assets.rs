//! The page and its assets, embedded in the binary (no CDN, no build step).

use axum::http::header;
use axum::response::IntoResponse;

/// `GET /`.
pub async fn index() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/html; charset=utf-8")],
        include_str!("../../web/index.html"),
    )
}

/// `GET /app.js`.
pub async fn app_js() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("../../web/app.js"),
    )
}

/// `GET /boards.js`: the Boards section (Chomp and Cram).
pub async fn boards_js() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("../../web/boards.js"),
    )
}

/// `GET /sum.js`: the Sums section (a heap, a Chomp and a Cram board played as one game).
pub async fn sum_js() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/javascript; charset=utf-8")],
        include_str!("../../web/sum.js"),
    )
}

/// `GET /style.css`.
pub async fn style_css() -> impl IntoResponse {
    (
        [(header::CONTENT_TYPE, "text/css; charset=utf-8")],
        include_str!("../../web/style.css"),
    )
}
