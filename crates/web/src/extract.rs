//! The JSON body extractor whose rejections are 4xx answers with a JSON message.

use super::ApiError;
use axum::extract::rejection::JsonRejection;
use axum::extract::{FromRequest, Request};
use axum::http::StatusCode;
use serde::de::DeserializeOwned;

/// Like `axum::Json`, but a bad body becomes `{"error": ...}` with the rejection's 4xx status.
pub struct Body<T>(pub T);

impl<S, T> FromRequest<S> for Body<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, ApiError> {
        // Every request body is a JSON object; serde would also take `[]` for a struct of defaults.
        let axum::Json(value) =
            axum::Json::<serde_json::Value>::from_request(req, state).await.map_err(json_rejection)?;
        if !value.is_object() {
            return Err(ApiError::bad_request("the body must be a JSON object"));
        }
        serde_json::from_value(value).map(Body).map_err(|e| {
            ApiError::new(StatusCode::UNPROCESSABLE_ENTITY.as_u16(), format!("the JSON does not fit: {e}"))
        })
    }
}

fn json_rejection(rejection: JsonRejection) -> ApiError {
    let status = rejection.status();
    let message = match &rejection {
        JsonRejection::MissingJsonContentType(_) => "expected a JSON body (Content-Type: application/json)".to_string(),
        JsonRejection::JsonSyntaxError(e) => format!("the body is not valid JSON: {}", e.body_text()),
        JsonRejection::JsonDataError(e) => format!("the JSON does not have the expected fields: {}", e.body_text()),
        JsonRejection::BytesRejection(_) => {
            format!("could not read the body (at most {} bytes): {}", super::MAX_BODY_BYTES, rejection.body_text())
        }
        _ => rejection.body_text(),
    };
    ApiError::new(status.as_u16(), message)
}
