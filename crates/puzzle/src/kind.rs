//! What a puzzle asks of the solver: a mate, or a decisive win.

/// What the solver achieves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A forced mate (or a position without a legal move, which loses in Xiangqi too).
    Mate,
    /// A decisive gain: material or an attack the engine scores as winning.
    Win,
}

impl Kind {
    /// The name in files and JSON: `mate` or `win`.
    pub const fn name(self) -> &'static str {
        match self {
            Kind::Mate => "mate",
            Kind::Win => "win",
        }
    }

    /// The kind named `name`.
    pub fn from_name(name: &str) -> Option<Kind> {
        match name {
            "mate" => Some(Kind::Mate),
            "win" => Some(Kind::Win),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip() {
        for kind in [Kind::Mate, Kind::Win] {
            assert_eq!(Kind::from_name(kind.name()), Some(kind));
        }
        assert_eq!(Kind::from_name("draw"), None);
    }
}
