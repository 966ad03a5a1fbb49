//! What a preview says, in the language the request asks for: `?lang=` when the link names one,
//! else `Accept-Language`; the four languages of the pages (English, Simplified and Traditional
//! Chinese, Vietnamese), picked from a tag as the pages pick (assets/i18n.js).

use super::game::LinkGame;
use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::HeaderMap;
use xiangqi::notation::Notation;
use xiangqi::Color;

/// A preview's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lang {
    En,
    /// Simplified Chinese.
    ZhHans,
    /// Traditional Chinese (Taiwan, Hong Kong, Macau).
    ZhHant,
    /// Vietnamese.
    Vi,
}

impl Lang {
    /// The language of a BCP 47 tag (`zh-TW`, `zh-Hant-HK`, `vi-VN`, `en-GB`), if it is one of ours.
    pub(crate) fn of_tag(tag: &str) -> Option<Lang> {
        let tag = tag.trim().to_ascii_lowercase();
        let mut parts = tag.split(['-', '_']);
        match parts.next()? {
            "zh" if parts.any(|p| matches!(p, "hant" | "tw" | "hk" | "mo")) => Some(Lang::ZhHant),
            "zh" => Some(Lang::ZhHans),
            "vi" => Some(Lang::Vi),
            "en" => Some(Lang::En),
            _ => None,
        }
    }

    /// The language the request prefers among ours: the highest `q` wins, the first on a tie;
    /// English when it names none.
    pub(crate) fn of(headers: &HeaderMap) -> Lang {
        let mut best: Option<(f32, Lang)> = None;
        for value in headers.get_all(ACCEPT_LANGUAGE).iter().filter_map(|v| v.to_str().ok()) {
            for item in value.split(',') {
                let mut parts = item.split(';');
                let Some(lang) = Lang::of_tag(parts.next().unwrap_or("")) else { continue };
                let q = parts
                    .filter_map(|p| p.trim().strip_prefix("q="))
                    .find_map(|q| q.trim().parse::<f32>().ok())
                    .unwrap_or(1.0);
                if q > 0.0 && best.is_none_or(|(b, _)| q > b) {
                    best = Some((q, lang));
                }
            }
        }
        best.map_or(Lang::En, |(_, lang)| lang)
    }

    /// The language of a request for a page with the query `query`: the link's `lang=` when it
    /// names one of ours (a sharer's "open in my language"), else [`Lang::of`] the headers.
    pub(crate) fn of_request(query: &str, headers: &HeaderMap) -> Lang {
        form_urlencoded::parse(query.trim_start_matches('?').as_bytes())
            .find(|(k, _)| k == "lang")
            .and_then(|(_, v)| Lang::of_tag(&v))
            .unwrap_or_else(|| Lang::of(headers))
    }

    /// The `og:locale` value.
    pub(crate) fn locale(self) -> &'static str {
        match self {
            Lang::En => "en_US",
            Lang::ZhHans => "zh_CN",
            Lang::ZhHant => "zh_TW",
            Lang::Vi => "vi_VN",
        }
    }

    /// The notation a player of this language reads moves in.
    fn notation(self) -> Notation {
        match self {
            Lang::En | Lang::ZhHans => Notation::Chinese,
            Lang::ZhHant => Notation::Traditional,
            Lang::Vi => Notation::Vietnamese,
        }
    }

    /// A side's name: `Red`, `红方`, `紅方`, `Đỏ`.
    pub(crate) fn side(self, color: Color) -> &'static str {
        match (self, color) {
            (Lang::En, Color::Red) => "Red",
            (Lang::En, Color::Black) => "Black",
            (Lang::ZhHans, Color::Red) => "红方",
            (Lang::ZhHant, Color::Red) => "紅方",
            (Lang::ZhHans | Lang::ZhHant, Color::Black) => "黑方",
            (Lang::Vi, Color::Red) => "Đỏ",
            (Lang::Vi, Color::Black) => "Đen",
        }
    }
}

/// A preview's title and description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Words {
    pub title: String,
    pub description: String,
}

/// The rule that ended a game (the names of `xiangqi::outcome::Reason` and the rooms' endings)
/// in `lang`; English names stay as they are.
fn reason(lang: Lang, reason: &str) -> &str {
    const NAMES: [(&str, &str, &str, &str); 12] = [
        ("checkmate", "将死", "將死", "chiếu hết"),
        ("stalemate", "困毙", "困斃", "hết nước đi"),
        ("perpetual check", "长将", "長將", "chiếu mãi"),
        ("perpetual chase", "长捉", "長捉", "đuổi bắt mãi"),
        ("repetition", "重复局面", "重複局面", "lặp lại thế cờ"),
        ("move limit", "限着", "限著", "hết số nước"),
        ("no attackers", "双方无进攻子力", "雙方無進攻子力", "không còn quân tấn công"),
        ("resignation", "认输", "認輸", "xin thua"),
        ("agreement", "议和", "議和", "thỏa thuận hòa"),
        ("flag", "超时", "超時", "hết giờ"),
        ("aborted", "中止", "中止", "hủy ván"),
        ("abandonment", "弃局", "棄局", "bỏ ván"),
    ];
    let Some(&(_, hans, hant, vi)) = NAMES.iter().find(|(en, ..)| *en == reason) else { return reason };
    match lang {
        Lang::En => reason,
        Lang::ZhHans => hans,
        Lang::ZhHant => hant,
        Lang::Vi => vi,
    }
}

/// Players' names, when the record has them (a room's game).
pub(crate) type Players<'a> = Option<(&'a str, &'a str)>;

/// The title and description of a game's preview: players and result when known, the number
/// of moves, the last move in the language's notation and whose turn it is.
pub(crate) fn game(game: &LinkGame, players: Players<'_>, lang: Lang) -> Words {
    let n = game.plies;
    let plural = if n == 1 { "" } else { "s" };
    let turn = game.last_position.turn();
    let title = match (lang, players) {
        (Lang::En, Some((red, black))) => format!("{red} vs {black} · Xiangqi"),
        (Lang::ZhHans, Some((red, black))) => format!("{red} 对 {black} · 象棋"),
        (Lang::ZhHant, Some((red, black))) => format!("{red} 對 {black} · 象棋"),
        (Lang::Vi, Some((red, black))) => format!("{red} - {black} · Cờ tướng"),
        (Lang::En, None) if n == 0 => "A Xiangqi position".to_string(),
        (Lang::ZhHans | Lang::ZhHant, None) if n == 0 => "象棋局面".to_string(),
        (Lang::Vi, None) if n == 0 => "Một thế cờ tướng".to_string(),
        (Lang::En, None) => format!("Xiangqi game · {n} move{plural}"),
        (Lang::ZhHans, None) => format!("象棋对局 · {n} 步"),
        (Lang::ZhHant, None) => format!("象棋對局 · {n} 步"),
        (Lang::Vi, None) => format!("Ván cờ tướng · {n} nước"),
    };
    let won = if lang == Lang::ZhHant { "勝" } else { "胜" };
    let result = game.result.map(|(winner, why)| {
        let why = reason(lang, why);
        match (lang, winner, why.is_empty()) {
            (Lang::En, Some(w), true) => format!("{} won.", lang.side(w)),
            (Lang::En, None, true) => "Drawn.".to_string(),
            (Lang::En, Some(w), false) => format!("{} won ({why}).", lang.side(w)),
            (Lang::En, None, false) => format!("Drawn ({why})."),
            (Lang::ZhHans | Lang::ZhHant, Some(w), true) => format!("{}{won}。", lang.side(w)),
            (Lang::ZhHans | Lang::ZhHant, Some(w), false) => format!("{}{won}（{why}）。", lang.side(w)),
            (Lang::ZhHans | Lang::ZhHant, None, true) => "和棋。".to_string(),
            (Lang::ZhHans | Lang::ZhHant, None, false) => format!("和棋（{why}）。"),
            (Lang::Vi, Some(w), true) => format!("{} thắng.", lang.side(w)),
            (Lang::Vi, Some(w), false) => format!("{} thắng ({why}).", lang.side(w)),
            (Lang::Vi, None, true) => "Hòa.".to_string(),
            (Lang::Vi, None, false) => format!("Hòa ({why})."),
        }
    });
    let state = result.unwrap_or_else(|| match lang {
        Lang::En => format!("{} to move.", lang.side(turn)),
        Lang::ZhHans => format!("轮到{}走棋。", lang.side(turn)),
        Lang::ZhHant => format!("輪到{}走棋。", lang.side(turn)),
        Lang::Vi => format!("{} đi.", lang.side(turn)),
    });
    let moves = match (lang, game.last_in(lang.notation())) {
        (Lang::En, Some(last)) => format!("{n} move{plural}, the last {last}. "),
        (Lang::ZhHans, Some(last)) => format!("共 {n} 步，最后一步 {last}。"),
        (Lang::ZhHant, Some(last)) => format!("共 {n} 步，最後一步 {last}。"),
        (Lang::Vi, Some(last)) => format!("{n} nước, nước cuối {last}. "),
        (Lang::En, None) => "No moves yet. ".to_string(),
        (Lang::ZhHans | Lang::ZhHant, None) => "尚未走子。".to_string(),
        (Lang::Vi, None) => "Chưa đi nước nào. ".to_string(),
    };
    let tail = match lang {
        Lang::En => " Replay, analyse or play on at Qi.",
        Lang::ZhHans => "在 Qi 上回放、分析或接着下。",
        Lang::ZhHant => "在 Qi 上重播、分析或接著下。",
        Lang::Vi => " Xem lại, phân tích hoặc chơi tiếp trên Qi.",
    };
    Words { title, description: format!("{moves}{state}{tail}") }
}

/// The title and description of a Huarong Dao layout's preview: its name when it is a classic,
/// and its minimum number of steps (`None`: it cannot be solved or was not solved in time).
pub(crate) fn huarong(name: Option<&str>, steps: Option<Option<usize>>, lang: Lang) -> Words {
    let title = match (lang, name) {
        (Lang::En, Some(name)) => format!("{name} · Huarong Dao"),
        (Lang::ZhHans, Some(name)) => format!("{name} · 华容道"),
        (Lang::ZhHant, Some(name)) => format!("{name} · 華容道"),
        (Lang::Vi, Some(name)) => format!("{name} · Hoa Dung đạo"),
        (Lang::En, None) => "A Huarong Dao layout".to_string(),
        (Lang::ZhHans, None) => "华容道布局".to_string(),
        (Lang::ZhHant, None) => "華容道佈局".to_string(),
        (Lang::Vi, None) => "Một thế Hoa Dung đạo".to_string(),
    };
    let steps = match (lang, steps) {
        (Lang::En, Some(Some(n))) => format!("Solved in {n} steps at the least."),
        (Lang::ZhHans | Lang::ZhHant, Some(Some(n))) => format!("最少 {n} 步可解。"),
        (Lang::Vi, Some(Some(n))) => format!("Giải được trong ít nhất {n} bước."),
        (Lang::En, Some(None)) => "This layout has no solution.".to_string(),
        (Lang::ZhHans, Some(None)) => "此布局无解。".to_string(),
        (Lang::ZhHant, Some(None)) => "此佈局無解。".to_string(),
        (Lang::Vi, Some(None)) => "Thế này không giải được.".to_string(),
        (Lang::En, None) => "Can you free Cao Cao?".to_string(),
        (Lang::ZhHans, None) => "你能让曹操脱身吗？".to_string(),
        (Lang::ZhHant, None) => "你能讓曹操脫身嗎？".to_string(),
        (Lang::Vi, None) => "Bạn có giải thoát được Tào Tháo?".to_string(),
    };
    let tail = match lang {
        Lang::En => " Slide the blocks until Cao Cao escapes, at Qi.",
        Lang::ZhHans => "在 Qi 上移动棋子，让曹操从出口走出。",
        Lang::ZhHant => "在 Qi 上移動棋子，讓曹操從出口走出。",
        Lang::Vi => " Trượt các khối cho đến khi Tào Tháo thoát ra, trên Qi.",
    };
    Words { title, description: format!("{steps}{tail}") }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn asking(value: &str) -> Lang {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_str(value).unwrap());
        Lang::of(&headers)
    }

    #[test]
    fn the_language_asked_for_wins() {
        assert_eq!(asking("zh-CN,zh;q=0.9,en;q=0.8"), Lang::ZhHans);
        assert_eq!(asking("en-GB,zh;q=0.5"), Lang::En);
        assert_eq!(asking("fr, zh-TW;q=0.4"), Lang::ZhHant);
        assert_eq!(asking("zh-Hant-HK"), Lang::ZhHant);
        assert_eq!(asking("vi-VN,vi;q=0.9,en;q=0.5"), Lang::Vi);
        assert_eq!(asking("de"), Lang::En);
        assert_eq!(asking("zh;q=0, en;q=0.1"), Lang::En);
        assert_eq!(Lang::of(&HeaderMap::new()), Lang::En);
    }

    #[test]
    fn the_links_lang_wins_over_the_headers() {
        let mut headers = HeaderMap::new();
        headers.insert(ACCEPT_LANGUAGE, HeaderValue::from_static("en-US"));
        assert_eq!(Lang::of_request("g=x&lang=vi", &headers), Lang::Vi);
        assert_eq!(Lang::of_request("?lang=zh-Hant&g=x", &headers), Lang::ZhHant);
        // A language the site does not have falls back to the headers.
        assert_eq!(Lang::of_request("g=x&lang=fr", &headers), Lang::En);
        assert_eq!(Lang::of_request("", &HeaderMap::new()), Lang::En);
    }

    #[test]
    fn a_game_is_told_in_words() {
        let game = super::super::game::read("moves=h2e2").unwrap();
        let en = super::game(&game, None, Lang::En);
        assert_eq!(en.title, "Xiangqi game · 1 move");
        assert_eq!(en.description, "1 move, the last 炮二平五. Black to move. Replay, analyse or play on at Qi.");
        let zh = super::game(&game, Some(("甲", "乙")), Lang::ZhHans);
        assert_eq!(zh.title, "甲 对 乙 · 象棋");
        assert!(zh.description.starts_with("共 1 步，最后一步 炮二平五。轮到黑方走棋。"), "{}", zh.description);
        let steps = huarong(Some("横刀立马"), Some(Some(81)), Lang::En);
        assert_eq!(steps.title, "横刀立马 · Huarong Dao");
        assert!(steps.description.starts_with("Solved in 81 steps"));
    }

    #[test]
    fn each_language_writes_the_last_move_in_its_own_notation() {
        let game = super::super::game::read("moves=h2e2.h9g7").unwrap();
        let hant = super::game(&game, None, Lang::ZhHant);
        assert_eq!(hant.title, "象棋對局 · 2 步");
        assert!(hant.description.starts_with("共 2 步，最後一步 馬８進７。輪到紅方走棋。"), "{}", hant.description);
        let vi = super::game(&game, Some(("An", "Bình")), Lang::Vi);
        assert_eq!(vi.title, "An - Bình · Cờ tướng");
        assert!(vi.description.starts_with("2 nước, nước cuối M8.7. Đỏ đi."), "{}", vi.description);
        let mated = super::super::game::read("fen=3k5/R8/9/9/9/9/9/9/8R/4K4%20w%20-%20-%200%201&moves=i1i9").unwrap();
        assert!(super::game(&mated, None, Lang::ZhHant).description.contains("紅方勝（將死）。"));
        assert!(super::game(&mated, None, Lang::Vi).description.contains("Đỏ thắng (chiếu hết)."));
        assert_eq!(
            huarong(None, Some(None), Lang::ZhHant).description,
            "此佈局無解。在 Qi 上移動棋子，讓曹操從出口走出。"
        );
    }
}
