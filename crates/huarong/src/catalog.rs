//! The classic layouts, embedded from `data/huarong-classic.tsv` with their reference answers.

use crate::layout::Layout;
use crate::moves::Convention;
use std::sync::OnceLock;

/// The reference table (name, grid, published, unit, straight, piece, states).
const TSV: &str = include_str!("../data/huarong-classic.tsv");

/// Pinyin (without tones) for each Chinese name, for typing on any keyboard.
const PINYIN: &[(&str, &str)] = &[
    ("横刀立马", "heng dao li ma"),
    ("指挥若定", "zhi hui ruo ding"),
    ("将拥曹营", "jiang yong cao ying"),
    ("齐头并进", "qi tou bing jin"),
    ("兵分三路", "bing fen san lu"),
    ("雨声淅沥", "yu sheng xi li"),
    ("左右布兵", "zuo you bu bing"),
    ("桃花园中", "tao hua yuan zhong"),
    ("一路进军", "yi lu jin jun"),
    ("一路顺风", "yi lu shun feng"),
    ("围而不歼", "wei er bu jian"),
    ("捷足先登", "jie zu xian deng"),
    ("插翅难飞", "cha chi nan fei"),
    ("守口如瓶1", "shou kou ru ping 1"),
    ("守口如瓶2", "shou kou ru ping 2"),
    ("双将挡路", "shuang jiang dang lu"),
    ("横马当关", "heng ma dang guan"),
    ("层层设防1", "ceng ceng she fang 1"),
    ("层层设防2", "ceng ceng she fang 2"),
    ("兵挡将阻", "bing dang jiang zu"),
    ("堵塞要道", "du se yao dao"),
    ("瓮中之鳖", "weng zhong zhi bie"),
    ("层峦叠嶂", "ceng luan die zhang"),
    ("水泄不通", "shui xie bu tong"),
    ("四路进兵", "si lu jin bing"),
    ("入地无门", "ru di wu men"),
    ("勇闯五关", "yong chuang wu guan"),
    ("四面楚歌", "si mian chu ge"),
    ("前呼后拥", "qian hu hou yong"),
    ("兵临曹营", "bing lin cao ying"),
    ("五将逼宫", "wu jiang bi gong"),
    ("前挡后阻", "qian dang hou zu"),
    ("近在咫尺", "jin zai zhi chi"),
    ("走投无路", "zou tou wu lu"),
    ("小燕出巢", "xiao yan chu chao"),
    ("比翼横空", "bi yi heng kong"),
    ("夹道藏兵", "jia dao cang bing"),
    ("屯兵东路", "tun bing dong lu"),
    ("四将连关", "si jiang lian guan"),
    ("峰回路转", "feng hui lu zhuan"),
];

/// A classic layout with its reference answers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Classic {
    /// Chinese name, e.g. 横刀立马.
    pub name: &'static str,
    /// Pinyin without tones, e.g. `heng dao li ma`.
    pub pinyin: &'static str,
    /// The layout.
    pub layout: Layout,
    /// The widely quoted minimum (piece convention); some sources are wrong, e.g. 0 for an unsolvable layout.
    pub published: Option<u32>,
    /// Minimum steps in the unit, straight and piece conventions (`None` = unsolvable).
    pub unit: Option<u32>,
    /// See `unit`.
    pub straight: Option<u32>,
    /// See `unit`.
    pub piece: Option<u32>,
    /// Layouts reachable from this one.
    pub states: usize,
}

impl Classic {
    /// The reference minimum in `convention`.
    pub fn steps(&self, convention: Convention) -> Option<u32> {
        match convention {
            Convention::Piece => self.piece,
            Convention::Straight => self.straight,
            Convention::Unit => self.unit,
        }
    }

    /// The pinyin squeezed to one lower-case word (`hengdaolima`), used for lookups.
    pub fn slug(&self) -> String {
        self.pinyin.chars().filter(|c| !c.is_whitespace()).collect()
    }
}

/// The 40 classic layouts in the order of the data file.
///
/// ```
/// let all = huarong::catalog::classics();
/// assert_eq!(all.len(), 40);
/// assert_eq!(all[0].name, "横刀立马");
/// assert_eq!(all[0].piece, Some(81));
/// ```
pub fn classics() -> &'static [Classic] {
    static TABLE: OnceLock<Vec<Classic>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let steps = |field: &str| if field == "none" { None } else { Some(field.parse().expect("steps column")) };
        TSV.lines()
            .filter(|line| !line.starts_with('#') && !line.trim().is_empty())
            .skip(1) // the column header
            .map(|line| {
                let f: Vec<&'static str> = line.split('\t').collect();
                assert_eq!(f.len(), 7, "bad catalog line {line:?}");
                let pinyin = PINYIN.iter().find(|(n, _)| *n == f[0]).map_or("", |&(_, p)| p);
                Classic {
                    name: f[0],
                    pinyin,
                    layout: Layout::parse(f[1]).expect("catalog grids are legal"),
                    published: steps(f[2]),
                    unit: steps(f[3]),
                    straight: steps(f[4]),
                    piece: steps(f[5]),
                    states: f[6].parse().expect("states column"),
                }
            })
            .collect()
    })
}

/// Finds a classic by Chinese name or pinyin (spaces, hyphens and case ignored).
///
/// ```
/// use huarong::catalog::find;
/// assert_eq!(find("heng-dao-li-ma").unwrap().name, "横刀立马");
/// assert_eq!(find("HengDaoLiMa").unwrap().name, "横刀立马");
/// assert!(find("nowhere").is_none());
/// ```
pub fn find(name: &str) -> Option<&'static Classic> {
    let wanted: String =
        name.trim().chars().filter(|c| !c.is_whitespace() && *c != '-' && *c != '_').collect::<String>().to_lowercase();
    classics().iter().find(|c| c.name == wanted || c.slug() == wanted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_classic_has_pinyin_and_a_unique_name() {
        let all = classics();
        assert_eq!(all.len(), 40);
        for c in all {
            assert!(!c.pinyin.is_empty(), "{}", c.name);
            assert_eq!(find(c.name).unwrap().name, c.name);
            assert_eq!(find(&c.slug()).unwrap().name, c.name);
        }
    }
}
