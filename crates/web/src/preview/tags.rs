//! The preview tags (Open Graph and Twitter card) written into a page's head, with the oEmbed
//! discovery link, so that chats and forums show a shared link as a card.

use super::words::{Lang, Words};

/// Escapes text for an HTML attribute or element.
pub(crate) fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            _ => out.push(ch),
        }
    }
    out
}

/// Where a preview points: the page itself, its picture and its oEmbed answer (absolute URLs).
pub(crate) struct Addresses {
    pub page: String,
    pub image: String,
    pub oembed: Option<String>,
}

/// `page` (an HTML page) with the preview tags for `words` in its head and `words.title` as its
/// title.
pub(crate) fn into_page(page: &str, words: &Words, lang: Lang, at: &Addresses) -> String {
    let (w, h) = qi_board_image::CARD_SIZE;
    let mut tags = String::new();
    let mut meta = |attr: &str, name: &str, content: &str| {
        tags.push_str(&format!("  <meta {attr}=\"{name}\" content=\"{}\">\n", escape(content)));
    };
    meta("property", "og:type", "website");
    meta("property", "og:site_name", "Qi");
    meta("property", "og:locale", lang.locale());
    meta("property", "og:title", &words.title);
    meta("property", "og:description", &words.description);
    meta("property", "og:url", &at.page);
    meta("property", "og:image", &at.image);
    meta("property", "og:image:type", "image/png");
    meta("property", "og:image:width", &w.to_string());
    meta("property", "og:image:height", &h.to_string());
    meta("property", "og:image:alt", &words.title);
    meta("name", "twitter:card", "summary_large_image");
    meta("name", "twitter:title", &words.title);
    meta("name", "twitter:description", &words.description);
    meta("name", "twitter:image", &at.image);
    meta("name", "description", &words.description);
    if let Some(oembed) = &at.oembed {
        tags.push_str(&format!(
            "  <link rel=\"alternate\" type=\"application/json+oembed\" href=\"{}\" title=\"{}\">\n",
            escape(oembed),
            escape(&words.title)
        ));
    }
    let titled = match (page.find("<title>"), page.find("</title>")) {
        (Some(a), Some(b)) if a < b => format!("{}<title>{}{}", &page[..a], escape(&words.title), &page[b..]),
        _ => page.to_string(),
    };
    match titled.find("</head>") {
        Some(at) => format!("{}{tags}{}", &titled[..at], &titled[at..]),
        None => titled,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_go_in_the_head_escaped() {
        let page = "<html><head>\n<title>Xiangqi · Qi</title>\n</head><body></body></html>";
        let words = Words { title: "A \"quoted\" <game>".into(), description: "d & e".into() };
        let at = Addresses { page: "http://h/xq?g=1&x=2".into(), image: "http://h/i.png".into(), oembed: None };
        let out = into_page(page, &words, Lang::En, &at);
        assert!(out.contains("<title>A &quot;quoted&quot; &lt;game&gt;</title>"), "{out}");
        assert!(out.contains("<meta property=\"og:url\" content=\"http://h/xq?g=1&amp;x=2\">"));
        assert!(out.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"));
        assert!(out.find("og:image").unwrap() < out.find("</head>").unwrap());
    }
}
