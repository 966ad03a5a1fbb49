#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]
#![deny(missing_docs)]

#[cfg(feature = "raster")]
mod card;
mod glyphs;
#[cfg(feature = "raster")]
mod raster;

#[cfg(feature = "raster")]
pub use card::{blocks_card_png, card_png, Block, CARD_SIZE};
#[cfg(feature = "raster")]
pub use raster::{gif, png, RasterError, MAX_CELL};

use core::fmt::Write;
use xiangqi::{Color, Move, PieceKind, Position};

/// How to draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Style {
    /// The distance between two lines of the board, in pixels.
    pub cell: u32,
    /// Whether to write the file numbers (Black's 1-9 above, Red's 九-一 below).
    pub coordinates: bool,
}

impl Default for Style {
    fn default() -> Style {
        Style { cell: 48, coordinates: true }
    }
}

/// The picture's width and height in pixels: eight cells across and nine down, plus a cell's
/// margin on each side.
pub fn size(style: &Style) -> (u32, u32) {
    (style.cell * 10, style.cell * 11)
}

/// An RGBA colour.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rgba(pub u8, pub u8, pub u8, pub u8);

const WOOD: Rgba = Rgba(0xF2, 0xD9, 0xA6, 0xFF);
const INK: Rgba = Rgba(0x5A, 0x3A, 0x1A, 0xFF);
const FACE: Rgba = Rgba(0xFB, 0xEE, 0xD5, 0xFF);
const RED: Rgba = Rgba(0xC0, 0x20, 0x20, 0xFF);
const BLACK: Rgba = Rgba(0x20, 0x20, 0x20, 0xFF);
const MARK: Rgba = Rgba(0x1E, 0x6F, 0xD9, 0xFF);

/// One thing to draw.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Shape {
    /// A rectangle, filled and/or outlined.
    Rect { x: f32, y: f32, w: f32, h: f32, fill: Option<Rgba>, stroke: Option<(Rgba, f32)> },
    /// A straight line.
    Line { x1: f32, y1: f32, x2: f32, y2: f32, color: Rgba, width: f32 },
    /// A circle, filled and/or outlined.
    Circle { cx: f32, cy: f32, r: f32, fill: Option<Rgba>, stroke: Option<(Rgba, f32)> },
    /// A glyph of the piece font centred on a point, `size` pixels to the em.
    Glyph { ch: char, cx: f32, cy: f32, size: f32, color: Rgba },
}

fn glyph_of(color: Color, kind: PieceKind) -> char {
    use PieceKind::*;
    match (color, kind) {
        (Color::Red, King) => '帥',
        (Color::Red, Advisor) => '仕',
        (Color::Red, Elephant) => '相',
        (Color::Red, Horse) => '傌',
        (Color::Red, Rook) => '俥',
        (Color::Red, Cannon) => '炮',
        (Color::Red, Pawn) => '兵',
        (Color::Black, King) => '將',
        (Color::Black, Advisor) => '士',
        (Color::Black, Elephant) => '象',
        (Color::Black, Horse) => '馬',
        (Color::Black, Rook) => '車',
        (Color::Black, Cannon) => '砲',
        (Color::Black, Pawn) => '卒',
    }
}

/// The drawing of a position, shape by shape, back to front.
pub(crate) fn shapes(pos: &Position, last: Option<Move>, style: &Style) -> Vec<Shape> {
    let c = style.cell as f32;
    let (w, h) = size(style);
    let at = |file: u8, rank: u8| (c + f32::from(file) * c, c + f32::from(9 - rank) * c);
    let mut out = vec![Shape::Rect { x: 0.0, y: 0.0, w: w as f32, h: h as f32, fill: Some(WOOD), stroke: None }];
    let thin = (c / 24.0).max(1.0);
    let line = |out: &mut Vec<Shape>, a: (u8, u8), b: (u8, u8)| {
        let ((x1, y1), (x2, y2)) = (at(a.0, a.1), at(b.0, b.1));
        out.push(Shape::Line { x1, y1, x2, y2, color: INK, width: thin });
    };
    for rank in 0..10 {
        line(&mut out, (0, rank), (8, rank));
    }
    for file in 0..9 {
        if file == 0 || file == 8 {
            line(&mut out, (file, 0), (file, 9));
        } else {
            line(&mut out, (file, 0), (file, 4));
            line(&mut out, (file, 5), (file, 9));
        }
    }
    for (a, b) in [((3, 0), (5, 2)), ((5, 0), (3, 2)), ((3, 7), (5, 9)), ((5, 7), (3, 9))] {
        line(&mut out, a, b);
    }
    let pad = c / 8.0;
    out.push(Shape::Rect {
        x: c - pad,
        y: c - pad,
        w: 8.0 * c + 2.0 * pad,
        h: 9.0 * c + 2.0 * pad,
        fill: None,
        stroke: Some((INK, thin * 2.0)),
    });
    let river = c + 4.5 * c;
    for (ch, x) in [('楚', 1.5), ('河', 2.5), ('漢', 5.5), ('界', 6.5)] {
        out.push(Shape::Glyph { ch, cx: c + x * c, cy: river, size: 0.6 * c, color: INK });
    }
    if style.coordinates {
        for file in 0..9u8 {
            let x = c + f32::from(file) * c;
            let top = char::from(b'1' + file);
            let bottom = ['九', '八', '七', '六', '五', '四', '三', '二', '一'][usize::from(file)];
            out.push(Shape::Glyph { ch: top, cx: x, cy: c * 0.27, size: 0.32 * c, color: INK });
            out.push(Shape::Glyph { ch: bottom, cx: x, cy: h as f32 - c * 0.27, size: 0.32 * c, color: INK });
        }
    }
    if let Some(m) = last {
        for sq in [m.from(), m.to()] {
            let (x, y) = at(sq.file(), sq.rank());
            let half = 0.48 * c;
            out.push(Shape::Rect {
                x: x - half,
                y: y - half,
                w: 2.0 * half,
                h: 2.0 * half,
                fill: None,
                stroke: Some((MARK, (c / 16.0).max(1.0))),
            });
        }
    }
    for (sq, piece) in pos.pieces() {
        let (x, y) = at(sq.file(), sq.rank());
        let ink = if piece.color == Color::Red { RED } else { BLACK };
        out.push(Shape::Circle {
            cx: x,
            cy: y,
            r: 0.44 * c,
            fill: Some(FACE),
            stroke: Some((ink, (c / 16.0).max(1.0))),
        });
        out.push(Shape::Circle { cx: x, cy: y, r: 0.36 * c, fill: None, stroke: Some((ink, (c / 40.0).max(0.5))) });
        out.push(Shape::Glyph { ch: glyph_of(piece.color, piece.kind), cx: x, cy: y, size: 0.56 * c, color: ink });
    }
    out
}

/// A glyph's outline and the transform that centres it: `(path data, scale, dx, dy)`, where a
/// font point `(u, v)` lands at `(dx + u * scale, dy - v * scale)`.
pub(crate) fn place_glyph(ch: char, cx: f32, cy: f32, size: f32) -> Option<(&'static str, f32, f32, f32)> {
    let (_, [x0, y0, x1, y1], d) = glyphs::GLYPHS.iter().find(|(c, _, _)| *c == ch)?;
    let s = size / glyphs::UNITS_PER_EM;
    Some((d, s, cx - (x0 + x1) / 2.0 * s, cy + (y0 + y1) / 2.0 * s))
}

fn hex(c: Rgba) -> String {
    format!("#{:02x}{:02x}{:02x}", c.0, c.1, c.2)
}

fn paint(kind: &str, c: Option<Rgba>) -> String {
    match c {
        Some(c) => format!(" {kind}=\"{}\"", hex(c)),
        None => format!(" {kind}=\"none\""),
    }
}

fn stroke(s: Option<(Rgba, f32)>) -> String {
    match s {
        Some((c, w)) => format!(" stroke=\"{}\" stroke-width=\"{w}\"", hex(c)),
        None => String::new(),
    }
}

/// Draws `pos` as an SVG document, with `last` (the move that led to it) marked.
pub fn svg(pos: &Position, last: Option<Move>, style: &Style) -> String {
    let (w, h) = size(style);
    let mut out =
        format!("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\">\n");
    for shape in shapes(pos, last, style) {
        let _ = match shape {
            Shape::Rect { x, y, w, h, fill, stroke: s } => writeln!(
                out,
                "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{h}\"{}{}/>",
                paint("fill", fill),
                stroke(s)
            ),
            Shape::Line { x1, y1, x2, y2, color, width } => writeln!(
                out,
                "<line x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{}\" stroke-width=\"{width}\"/>",
                hex(color)
            ),
            Shape::Circle { cx, cy, r, fill, stroke: s } => {
                writeln!(out, "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\"{}{}/>", paint("fill", fill), stroke(s))
            }
            Shape::Glyph { ch, cx, cy, size, color } => match place_glyph(ch, cx, cy, size) {
                Some((d, s, dx, dy)) => writeln!(
                    out,
                    "<path transform=\"matrix({s} 0 0 {} {dx} {dy})\" fill=\"{}\" d=\"{d}\"/>",
                    -s,
                    hex(color)
                ),
                None => Ok(()),
            },
        };
    }
    out.push_str("</svg>\n");
    out
}

/// One segment of a glyph outline.
#[cfg_attr(not(feature = "raster"), allow(dead_code))]
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Seg {
    Move(f32, f32),
    Line(f32, f32),
    Quad(f32, f32, f32, f32),
    Cubic(f32, f32, f32, f32, f32, f32),
    Close,
}

/// Reads the absolute SVG path data of [`glyphs::GLYPHS`] (M, L, H, V, Q, C, Z).
#[cfg_attr(not(feature = "raster"), allow(dead_code))]
pub(crate) fn segments(d: &str) -> Vec<Seg> {
    let mut out = Vec::new();
    let mut nums: Vec<f32> = Vec::new();
    let mut cmd = ' ';
    let (mut x, mut y) = (0.0f32, 0.0f32);
    let flush = |cmd: char, nums: &mut Vec<f32>, out: &mut Vec<Seg>, x: &mut f32, y: &mut f32| {
        let n = std::mem::take(nums);
        match cmd {
            'M' | 'L' => {
                for (i, p) in n.chunks_exact(2).enumerate() {
                    (*x, *y) = (p[0], p[1]);
                    out.push(if cmd == 'M' && i == 0 { Seg::Move(*x, *y) } else { Seg::Line(*x, *y) });
                }
            }
            'H' => n.iter().for_each(|&v| {
                *x = v;
                out.push(Seg::Line(*x, *y));
            }),
            'V' => n.iter().for_each(|&v| {
                *y = v;
                out.push(Seg::Line(*x, *y));
            }),
            'Q' => n.chunks_exact(4).for_each(|p| {
                (*x, *y) = (p[2], p[3]);
                out.push(Seg::Quad(p[0], p[1], p[2], p[3]));
            }),
            'C' => n.chunks_exact(6).for_each(|p| {
                (*x, *y) = (p[4], p[5]);
                out.push(Seg::Cubic(p[0], p[1], p[2], p[3], p[4], p[5]));
            }),
            'Z' => out.push(Seg::Close),
            _ => {}
        }
    };
    let mut number = String::new();
    for ch in d.chars().chain(core::iter::once(' ')) {
        if ch.is_ascii_digit() || ch == '.' || (ch == '-' && number.is_empty()) {
            number.push(ch);
            continue;
        }
        if !number.is_empty() {
            nums.push(number.parse().unwrap_or(0.0));
            number.clear();
        }
        if ch == '-' {
            number.push(ch);
        } else if ch.is_ascii_alphabetic() {
            flush(cmd, &mut nums, &mut out, &mut x, &mut y);
            cmd = ch;
            if ch == 'Z' || ch == 'z' {
                flush('Z', &mut nums, &mut out, &mut x, &mut y);
                cmd = ' ';
            }
        }
    }
    flush(cmd, &mut nums, &mut out, &mut x, &mut y);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_glyph_the_drawing_asks_for_is_there() {
        let pos = Position::from_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1").unwrap();
        for shape in shapes(&pos, None, &Style::default()) {
            if let Shape::Glyph { ch, .. } = shape {
                assert!(place_glyph(ch, 0.0, 0.0, 10.0).is_some(), "{ch}");
            }
        }
    }

    #[test]
    fn outlines_read() {
        for (ch, _, d) in glyphs::GLYPHS {
            let segs = segments(d);
            assert!(matches!(segs.first(), Some(Seg::Move(..))), "{ch}");
            assert!(segs.iter().filter(|s| matches!(s, Seg::Close)).count() >= 1, "{ch}");
        }
        assert_eq!(
            segments("M1 2L3 -4H5V6Z"),
            [Seg::Move(1.0, 2.0), Seg::Line(3.0, -4.0), Seg::Line(5.0, -4.0), Seg::Line(5.0, 6.0), Seg::Close]
        );
    }

    #[test]
    fn the_last_move_is_marked() {
        let mut pos = Position::startpos();
        let m: Move = "h2e2".parse().unwrap();
        pos.play(m).unwrap();
        let svg = svg(&pos, Some(m), &Style::default());
        assert_eq!(svg.matches("stroke=\"#1e6fd9\"").count(), 2);
    }
}
