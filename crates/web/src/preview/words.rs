//! What a preview says, in the language the request asks for (`Accept-Language`): English or
//! Chinese, the two languages of the pages.

use super::game::LinkGame;
use axum::http::header::ACCEPT_LANGUAGE;
use axum::http::HeaderMap;
use xiangqi::Color;

/// A preview's language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Lang {
    En,
    Zh,
}

impl Lang {
    /// The language the request prefers among ours: the highest `q` wins, the first on a tie;
    /// English when it names neither.
    pub(crate) fn of(headers: &HeaderMap) -> Lang {
        let mut best: Option<(f32, Lang)> = None;
        for value in headers.get_all(ACCEPT_LANGUAGE).iter().filter_map(|v| v.to_str().ok()) {
            for item in value.split(',') {
                let mut parts = item.split(';');
                let tag = parts.next().unwrap_or("").trim().to_ascii_lowercase();
                let q = parts
                    .filter_map(|p| p.trim().strip_prefix("q="))
                    .find_map(|q| q.trim().parse::<f32>().ok())
                    .unwrap_or(1.0);
                let lang = if tag == "zh" || tag.starts_with("zh-") {
                    Lang::Zh
                } else if tag == "en" || tag.starts_with("en-") {
                    Lang::En
                } else {
                    continue;
                };
                if q > 0.0 && best.is_none_or(|(b, _)| q > b) {
                    best = Some((q, lang));
                }
            }
        }
        best.map_or(Lang::En, |(_, lang)| lang)
    }

    /// The `og:locale` value.
    pub(crate) fn locale(self) -> &'static str {
        match self {
            Lang::En => "en_US",
            Lang::Zh => "zh_CN",
        }
    }
}

/// A preview's title and description.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Words {
    pub title: String,
    pub description: String,
}

fn side(lang: Lang, color: Color) -> &'static str {
    match (lang, color) {
        (Lang::En, Color::Red) => "Red",
        (Lang::En, Color::Black) => "Black",
        (Lang::Zh, Color::Red) => "红方",
        (Lang::Zh, Color::Black) => "黑方",
    }
}

/// The rule that ended a game (the names of `xiangqi::outcome::Reason`), in Chinese.
fn reason_zh(reason: &str) -> &str {
    match reason {
        "checkmate" => "将死",
        "stalemate" => "困毙",
        "perpetual check" => "长将",
        "perpetual chase" => "长捉",
        "repetition" => "重复局面",
        "move limit" => "限着",
        "no attackers" => "双方无进攻子力",
        "resignation" => "认输",
        "agreement" => "议和",
        "flag" => "超时",
        "aborted" => "中止",
        "abandonment" => "弃局",
        other => other,
    }
}

/// Players' names, when the record has them (a room's game).
pub(crate) type Players<'a> = Option<(&'a str, &'a str)>;

/// The title and description of a game's preview: players and result when known, the number
/// of moves, the last move in Chinese notation and whose turn it is.
pub(crate) fn game(game: &LinkGame, players: Players<'_>, lang: Lang) -> Words {
    let n = game.plies;
    let turn = game.last_position.turn();
    let title = match (lang, players) {
        (Lang::En, Some((red, black))) => format!("{red} vs {black} · Xiangqi"),
        (Lang::Zh, Some((red, black))) => format!("{red} 对 {black} · 象棋"),
        (Lang::En, None) if n == 0 => "A Xiangqi position".to_string(),
        (Lang::Zh, None) if n == 0 => "象棋局面".to_string(),
        (Lang::En, None) => format!("Xiangqi game · {n} move{}", if n == 1 { "" } else { "s" }),
        (Lang::Zh, None) => format!("象棋对局 · {n} 步"),
    };
    let result = game.result.map(|(winner, reason)| match (lang, winner) {
        (_, _) if reason.is_empty() => match (lang, winner) {
            (Lang::En, Some(w)) => format!("{} won.", side(lang, w)),
            (Lang::En, None) => "Drawn.".to_string(),
            (Lang::Zh, Some(w)) => format!("{}胜。", side(lang, w)),
            (Lang::Zh, None) => "和棋。".to_string(),
        },
        (Lang::En, Some(w)) => format!("{} won ({reason}).", side(lang, w)),
        (Lang::En, None) => format!("Drawn ({reason})."),
        (Lang::Zh, Some(w)) => format!("{}胜（{}）。", side(lang, w), reason_zh(reason)),
        (Lang::Zh, None) => format!("和棋（{}）。", reason_zh(reason)),
    });
    let state = result.unwrap_or_else(|| match lang {
        Lang::En => format!("{} to move.", side(lang, turn)),
        Lang::Zh => format!("轮到{}走棋。", side(lang, turn)),
    });
    let moves = match (lang, game.last_chinese.as_deref()) {
        (Lang::En, Some(last)) => format!("{n} move{}, the last {last}. ", if n == 1 { "" } else { "s" }),
        (Lang::Zh, Some(last)) => format!("共 {n} 步，最后一步 {last}。"),
        (Lang::En, None) => "No moves yet. ".to_string(),
        (Lang::Zh, None) => "尚未走子。".to_string(),
    };
    let tail = match lang {
        Lang::En => " Replay, analyse or play on at Qi.",
        Lang::Zh => "在 Qi 上回放、分析或接着下。",
    };
    Words { title, description: format!("{moves}{state}{tail}") }
}

/// The title and description of a Huarong Dao layout's preview: its name when it is a classic,
/// and its minimum number of steps (`None`: it cannot be solved or was not solved in time).
pub(crate) fn huarong(name: Option<&str>, steps: Option<Option<usize>>, lang: Lang) -> Words {
    let title = match (lang, name) {
        (Lang::En, Some(name)) => format!("{name} · Huarong Dao"),
        (Lang::Zh, Some(name)) => format!("{name} · 华容道"),
        (Lang::En, None) => "A Huarong Dao layout".to_string(),
        (Lang::Zh, None) => "华容道布局".to_string(),
    };
    let steps = match (lang, steps) {
        (Lang::En, Some(Some(n))) => format!("Solved in {n} steps at the least."),
        (Lang::Zh, Some(Some(n))) => format!("最少 {n} 步可解。"),
        (Lang::En, Some(None)) => "This layout has no solution.".to_string(),
        (Lang::Zh, Some(None)) => "此布局无解。".to_string(),
        (Lang::En, None) => "Can you free Cao Cao?".to_string(),
        (Lang::Zh, None) => "你能让曹操脱身吗？".to_string(),
    };
    let tail = match lang {
        Lang::En => " Slide the blocks until Cao Cao escapes, at Qi.",
        Lang::Zh => "在 Qi 上移动棋子，让曹操从出口走出。",
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
        assert_eq!(asking("zh-CN,zh;q=0.9,en;q=0.8"), Lang::Zh);
        assert_eq!(asking("en-GB,zh;q=0.5"), Lang::En);
        assert_eq!(asking("fr, zh-TW;q=0.4"), Lang::Zh);
        assert_eq!(asking("de"), Lang::En);
        assert_eq!(asking("zh;q=0, en;q=0.1"), Lang::En);
        assert_eq!(Lang::of(&HeaderMap::new()), Lang::En);
    }

    #[test]
    fn a_game_is_told_in_words() {
        let game = super::super::game::read("moves=h2e2").unwrap();
        let en = super::game(&game, None, Lang::En);
        assert_eq!(en.title, "Xiangqi game · 1 move");
        assert_eq!(en.description, "1 move, the last 炮二平五. Black to move. Replay, analyse or play on at Qi.");
        let zh = super::game(&game, Some(("甲", "乙")), Lang::Zh);
        assert_eq!(zh.title, "甲 对 乙 · 象棋");
        assert!(zh.description.starts_with("共 1 步，最后一步 炮二平五。轮到黑方走棋。"), "{}", zh.description);
        let steps = huarong(Some("横刀立马"), Some(Some(81)), Lang::En);
        assert_eq!(steps.title, "横刀立马 · Huarong Dao");
        assert!(steps.description.starts_with("Solved in 81 steps"));
    }
}
