//! The preview card: the picture that link previews (`og:image`) show under a shared game. A
//! wide picture of the size the big previews of chats and forums use, the board on the left
//! and a caption on the right, drawn only from the glyph outlines so it needs no font.

use crate::raster::{draw, render, RasterError};
use crate::{glyph_of, glyphs, Rgba, Shape, Style, FACE};
use tiny_skia::{Pixmap, PixmapPaint, Transform};
use xiangqi::{Color, Move, Position};

/// The card's width and height in pixels: the 1.91:1 picture of `summary_large_image` cards.
pub const CARD_SIZE: (u32, u32) = (1200, 630);

/// The card's background: dark wood, so the lighter board stands out.
const BACKDROP: Rgba = Rgba(0x3B, 0x27, 0x14, 0xFF);
/// The caption's ink on the backdrop.
const CAPTION: Rgba = Rgba(0xF7, 0xE6, 0xC4, 0xFF);
/// The board's cell on the card: the board is 11 cells high, 594 of the 630 pixels.
const CARD_CELL: u32 = 54;
/// Where the caption is set: the part of the card right of the board.
const PANEL: (f32, f32) = (640.0, 1160.0);
/// The caption's glyph size and the line height, in pixels.
const TEXT_SIZE: f32 = 84.0;
const LINE_HEIGHT: f32 = 120.0;

/// Draws the preview card of `pos` as a PNG: the board with `last` (the move that led to it)
/// marked, `caption` set right of it (one line per `\n`, each shrunk to fit; characters with
/// no outline leave a gap), and under it the piece of the side to move.
///
/// ```
/// use xiangqi::Position;
/// let png = qi_board_image::card_png(&Position::startpos(), None, "0").unwrap();
/// assert_eq!(&png[1..4], b"PNG");
/// ```
///
/// # Errors
///
/// An encoder failure.
pub fn card_png(pos: &Position, last: Option<Move>, caption: &str) -> Result<Vec<u8>, RasterError> {
    let (w, h) = CARD_SIZE;
    let mut card = Pixmap::new(w, h).ok_or(RasterError::BadSize(CARD_CELL))?;
    draw(&mut card, [Shape::Rect { x: 0.0, y: 0.0, w: w as f32, h: h as f32, fill: Some(BACKDROP), stroke: None }]);
    let style = Style { cell: CARD_CELL, coordinates: true };
    let board = render(pos, last, &style)?;
    let top = (h - board.height()) / 2;
    card.draw_pixmap(top as i32, top as i32, board.as_ref(), &PixmapPaint::default(), Transform::identity(), None);
    let lines: Vec<&str> = caption.lines().collect();
    let disc = 70.0;
    // The caption and the disc together, centred in the panel's height.
    let block = lines.len() as f32 * LINE_HEIGHT + 2.0 * disc;
    let mut y = (h as f32 - block) / 2.0 + LINE_HEIGHT / 2.0;
    let mut shapes = Vec::new();
    for line in lines {
        set_line(&mut shapes, line, y);
        y += LINE_HEIGHT;
    }
    let side = pos.turn();
    let ink = if side == Color::Red { crate::RED } else { crate::BLACK };
    let (cx, cy) = ((PANEL.0 + PANEL.1) / 2.0, y - LINE_HEIGHT / 2.0 + disc);
    shapes.push(Shape::Circle { cx, cy, r: disc * 0.9, fill: Some(FACE), stroke: Some((ink, 6.0)) });
    shapes.push(Shape::Circle { cx, cy, r: disc * 0.74, fill: None, stroke: Some((ink, 2.5)) });
    shapes.push(Shape::Glyph { ch: glyph_of(side, xiangqi::PieceKind::King), cx, cy, size: disc * 1.15, color: ink });
    draw(&mut card, shapes);
    encode(&card)
}

/// The card as a PNG: RGB (it is opaque, so alpha would only add a quarter to the pixels) at
/// the best compression: about a fifth of the size of tiny-skia's own RGBA encoding.
fn encode(card: &Pixmap) -> Result<Vec<u8>, RasterError> {
    let rgb: Vec<u8> = card.data().chunks_exact(4).flat_map(|p| [p[0], p[1], p[2]]).collect();
    let mut out = Vec::new();
    let mut encoder = png::Encoder::new(&mut out, card.width(), card.height());
    encoder.set_color(png::ColorType::Rgb);
    encoder.set_depth(png::BitDepth::Eight);
    encoder.set_compression(png::Compression::Best);
    let fail = |e: png::EncodingError| RasterError::Encode(e.to_string());
    let mut writer = encoder.write_header().map_err(fail)?;
    writer.write_image_data(&rgb).map_err(fail)?;
    writer.finish().map_err(fail)?;
    Ok(out)
}

/// A block of a sliding-block puzzle (Huarong Dao) on a grid: its top-left cell, its size in
/// cells, and whether it is the block to free.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// Its left column, from 0.
    pub col: u32,
    /// Its top row, from 0.
    pub row: u32,
    /// Its width in cells.
    pub width: u32,
    /// Its height in cells.
    pub height: u32,
    /// Whether it is the block that must reach the exit (drawn in red).
    pub main: bool,
}

/// The grid's cell on a blocks card: a 5-row grid is 550 of the 630 pixels.
const BLOCK_CELL: f32 = 110.0;

/// Draws the preview card of a sliding-block layout as a PNG: a `cols` × `rows` grid with its
/// `blocks`, the exit (the middle of the bottom edge) marked, and `caption` right of it.
///
/// ```
/// use qi_board_image::{blocks_card_png, Block};
/// let cao = Block { col: 1, row: 0, width: 2, height: 2, main: true };
/// assert_eq!(&blocks_card_png(4, 5, &[cao], "81").unwrap()[1..4], b"PNG");
/// ```
///
/// # Errors
///
/// A grid too large for the card's height (more than 5 rows or columns), or an encoder failure.
pub fn blocks_card_png(cols: u32, rows: u32, blocks: &[Block], caption: &str) -> Result<Vec<u8>, RasterError> {
    if cols == 0 || rows == 0 || cols > 5 || rows > 5 {
        return Err(RasterError::BadSize(cols.max(rows)));
    }
    let (w, h) = CARD_SIZE;
    let mut card = Pixmap::new(w, h).ok_or(RasterError::BadSize(CARD_CELL))?;
    let c = BLOCK_CELL;
    let (bw, bh) = (cols as f32 * c, rows as f32 * c);
    let (x0, y0) = ((PANEL.0 - bw) / 2.0, (h as f32 - bh) / 2.0);
    let mut shapes = vec![
        Shape::Rect { x: 0.0, y: 0.0, w: w as f32, h: h as f32, fill: Some(BACKDROP), stroke: None },
        Shape::Rect { x: x0 - 8.0, y: y0 - 8.0, w: bw + 16.0, h: bh + 16.0, fill: Some(crate::WOOD), stroke: None },
        // The exit: the two middle columns of the bottom edge.
        Shape::Line {
            x1: x0 + (cols as f32 / 2.0 - 1.0) * c,
            y1: y0 + bh + 4.0,
            x2: x0 + (cols as f32 / 2.0 + 1.0) * c,
            y2: y0 + bh + 4.0,
            color: crate::MARK,
            width: 8.0,
        },
    ];
    for b in blocks {
        let inset = 5.0;
        shapes.push(Shape::Rect {
            x: x0 + b.col as f32 * c + inset,
            y: y0 + b.row as f32 * c + inset,
            w: b.width as f32 * c - 2.0 * inset,
            h: b.height as f32 * c - 2.0 * inset,
            fill: Some(if b.main { crate::RED } else { FACE }),
            stroke: Some((crate::INK, 3.0)),
        });
    }
    let lines: Vec<&str> = caption.lines().collect();
    let mut y = (h as f32 - lines.len() as f32 * LINE_HEIGHT) / 2.0 + LINE_HEIGHT / 2.0;
    for line in lines {
        set_line(&mut shapes, line, y);
        y += LINE_HEIGHT;
    }
    draw(&mut card, shapes);
    encode(&card)
}

/// Sets one line of the caption centred in the panel at height `y`, shrunk to fit its width.
fn set_line(out: &mut Vec<Shape>, line: &str, y: f32) {
    // Each glyph is as wide as its outline, with a tenth of an em between glyphs; a space is
    // a third of an em.
    let width_of = |ch: char| -> f32 {
        glyphs::GLYPHS
            .iter()
            .find(|(c, _, _)| *c == ch)
            .map_or(1.0 / 3.0, |(_, [x0, _, x1, _], _)| (x1 - x0) / glyphs::UNITS_PER_EM)
    };
    let gap = 0.1;
    let ems: f32 = line.chars().map(|ch| width_of(ch) + gap).sum::<f32>() - gap;
    let room = PANEL.1 - PANEL.0;
    let size = TEXT_SIZE.min(room / ems.max(f32::EPSILON));
    let mut x = (PANEL.0 + PANEL.1) / 2.0 - ems * size / 2.0;
    for ch in line.chars() {
        let w = width_of(ch) * size;
        out.push(Shape::Glyph { ch, cx: x + w / 2.0, cy: y, size, color: CAPTION });
        x += w + gap * size;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decoded_size(png: &[u8]) -> (u32, u32) {
        let be = |at: usize| u32::from_be_bytes([png[at], png[at + 1], png[at + 2], png[at + 3]]);
        (be(16), be(20))
    }

    #[test]
    fn a_card_is_the_large_preview_size_and_the_same_game_gives_the_same_bytes() {
        let mut pos = Position::startpos();
        let m: Move = "h2e2".parse().unwrap();
        pos.play(m).unwrap();
        let card = card_png(&pos, Some(m), "1 炮二平五").unwrap();
        assert_eq!(decoded_size(&card), CARD_SIZE);
        assert!(card.len() < 300_000, "{} bytes: some chat apps drop larger previews", card.len());
        assert_eq!(card, card_png(&pos, Some(m), "1 炮二平五").unwrap());
        // Another move, another picture; another caption, another picture.
        let other = card_png(&Position::startpos(), None, "1 炮二平五").unwrap();
        assert_ne!(card, other);
        assert_ne!(card, card_png(&pos, Some(m), "2 炮二平五").unwrap());
    }

    #[test]
    fn a_blocks_card_is_the_same_size_and_shows_its_blocks() {
        let cao = Block { col: 1, row: 0, width: 2, height: 2, main: true };
        let soldier = Block { col: 0, row: 4, width: 1, height: 1, main: false };
        let one = blocks_card_png(4, 5, &[cao, soldier], "81").unwrap();
        assert_eq!(decoded_size(&one), CARD_SIZE);
        assert_ne!(one, blocks_card_png(4, 5, &[cao], "81").unwrap());
        assert!(blocks_card_png(9, 5, &[cao], "").is_err());
    }

    #[test]
    fn every_character_of_chinese_notation_has_an_outline() {
        let mut pos = Position::startpos();
        let mut text = String::from("0123456789");
        for iccs in ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "e3e4", "h7h3", "a0a1", "c6c5"] {
            let m: Move = iccs.parse().unwrap();
            text += &xiangqi::notation::format(&pos, m, xiangqi::notation::Notation::Chinese);
            pos.play(m).unwrap();
        }
        text += "进退平前后中";
        for ch in text.chars() {
            assert!(glyphs::GLYPHS.iter().any(|(c, _, _)| *c == ch), "{ch} has no outline");
        }
    }
}
