//! PNG and GIF: the drawing of [`crate::shapes`] rendered with tiny-skia.

use crate::{place_glyph, segments, shapes, size, Rgba, Seg, Shape, Style};
use core::fmt;
use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Stroke, Transform};
use xiangqi::{Move, Position};

/// The largest cell [`png()`] and [`gif()`] draw (a 2,560 × 2,816 picture).
pub const MAX_CELL: u32 = 256;

/// A picture that could not be made.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RasterError {
    /// The cell is 0 or larger than [`MAX_CELL`].
    BadSize(u32),
    /// The encoder failed (its message).
    Encode(String),
}

impl fmt::Display for RasterError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RasterError::BadSize(c) => write!(f, "a cell of {c} pixels (1 to {MAX_CELL})"),
            RasterError::Encode(e) => write!(f, "encoding failed: {e}"),
        }
    }
}

impl std::error::Error for RasterError {}

fn paint(c: Rgba) -> Paint<'static> {
    let mut p = Paint::default();
    p.set_color(Color::from_rgba8(c.0, c.1, c.2, c.3));
    p.anti_alias = true;
    p
}

pub(crate) fn render(pos: &Position, last: Option<Move>, style: &Style) -> Result<Pixmap, RasterError> {
    if style.cell == 0 || style.cell > MAX_CELL {
        return Err(RasterError::BadSize(style.cell));
    }
    let (w, h) = size(style);
    let mut pix = Pixmap::new(w, h).ok_or(RasterError::BadSize(style.cell))?;
    draw(&mut pix, shapes(pos, last, style));
    Ok(pix)
}

/// Paints `shapes` onto `pix`, back to front.
pub(crate) fn draw(pix: &mut Pixmap, shapes: impl IntoIterator<Item = Shape>) {
    let id = Transform::identity();
    for shape in shapes {
        match shape {
            Shape::Rect { x, y, w, h, fill, stroke } => {
                let Some(rect) = Rect::from_xywh(x, y, w, h) else { continue };
                let path = PathBuilder::from_rect(rect);
                if let Some(c) = fill {
                    pix.fill_path(&path, &paint(c), FillRule::Winding, id, None);
                }
                if let Some((c, width)) = stroke {
                    pix.stroke_path(&path, &paint(c), &Stroke { width, ..Stroke::default() }, id, None);
                }
            }
            Shape::Line { x1, y1, x2, y2, color, width } => {
                let mut pb = PathBuilder::new();
                pb.move_to(x1, y1);
                pb.line_to(x2, y2);
                if let Some(path) = pb.finish() {
                    pix.stroke_path(&path, &paint(color), &Stroke { width, ..Stroke::default() }, id, None);
                }
            }
            Shape::Circle { cx, cy, r, fill, stroke } => {
                let Some(path) = PathBuilder::from_circle(cx, cy, r) else { continue };
                if let Some(c) = fill {
                    pix.fill_path(&path, &paint(c), FillRule::Winding, id, None);
                }
                if let Some((c, width)) = stroke {
                    pix.stroke_path(&path, &paint(c), &Stroke { width, ..Stroke::default() }, id, None);
                }
            }
            Shape::Glyph { ch, cx, cy, size, color } => {
                let Some((d, s, dx, dy)) = place_glyph(ch, cx, cy, size) else { continue };
                let mut pb = PathBuilder::new();
                for seg in segments(d) {
                    match seg {
                        Seg::Move(x, y) => pb.move_to(x, y),
                        Seg::Line(x, y) => pb.line_to(x, y),
                        Seg::Quad(x1, y1, x, y) => pb.quad_to(x1, y1, x, y),
                        Seg::Cubic(x1, y1, x2, y2, x, y) => pb.cubic_to(x1, y1, x2, y2, x, y),
                        Seg::Close => pb.close(),
                    }
                }
                if let Some(path) = pb.finish() {
                    let t = Transform::from_row(s, 0.0, 0.0, -s, dx, dy);
                    pix.fill_path(&path, &paint(color), FillRule::Winding, t, None);
                }
            }
        }
    }
}

/// Draws `pos` as a PNG, with `last` (the move that led to it) marked.
///
/// # Errors
///
/// [`RasterError::BadSize`] for a cell of 0 or over [`MAX_CELL`]; an encoder failure.
pub fn png(pos: &Position, last: Option<Move>, style: &Style) -> Result<Vec<u8>, RasterError> {
    render(pos, last, style)?.encode_png().map_err(|e| RasterError::Encode(e.to_string()))
}

/// Draws a line of moves as an animated GIF: the start position, then one frame after each
/// move with the move marked (`moves.len() + 1` frames), `delay` hundredths of a second each,
/// the last frame held three times as long. Each move must be legal in turn.
///
/// # Errors
///
/// As [`png`].
pub fn gif(start: &Position, moves: &[Move], style: &Style, delay: u16) -> Result<Vec<u8>, RasterError> {
    let (w, h) = size(style);
    let enc_err = |e: gif::EncodingError| RasterError::Encode(e.to_string());
    if style.cell == 0 || style.cell > MAX_CELL {
        return Err(RasterError::BadSize(style.cell));
    }
    let mut out = Vec::new();
    {
        let mut enc = gif::Encoder::new(&mut out, w as u16, h as u16, &[]).map_err(enc_err)?;
        enc.set_repeat(gif::Repeat::Infinite).map_err(enc_err)?;
        let mut pos = start.clone();
        for i in 0..=moves.len() {
            let last = i.checked_sub(1).map(|j| moves[j]);
            if let Some(m) = last {
                pos.play_unchecked(m);
            }
            let mut rgba = render(&pos, last, style)?.take();
            let mut frame = gif::Frame::from_rgba_speed(w as u16, h as u16, &mut rgba, 30);
            frame.delay = if i == moves.len() { delay.saturating_mul(3) } else { delay };
            enc.write_frame(&frame).map_err(enc_err)?;
        }
    }
    Ok(out)
}
