//! What [`classify`](crate::classify) answers: an ECCO code and its names.

/// An opening: its ECCO code and names, as the table gives them.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Opening<'t> {
    /// The ECCO code, `A00` to `E99`.
    pub code: &'t str,
    /// The Chinese name (`中炮对屏风马`).
    pub name_zh: &'t str,
    /// The English name, where one is in use.
    pub name_en: Option<&'t str>,
    /// The Chinese name of the code's group: the name of its `X0` code (`C40` for `C41`), or its
    /// own name when the table has no `X0` code for it. PGN's `Opening` header.
    pub group_zh: &'t str,
    /// The number of plies of the table line that names it (0 for the start position).
    pub depth: usize,
}

impl Opening<'_> {
    /// The family letter, `A` to `E`.
    pub fn family(&self) -> char {
        self.code.chars().next().unwrap_or('?')
    }

    /// Whether the code is its group's "others" code (`A00`, `A40`, `C30`...): ECCO gives an
    /// opening such a code when none of the group's more specific codes fits.
    pub fn is_others(&self) -> bool {
        self.code.ends_with('0')
    }

    /// The variation's name for PGN's `Variation` header: the code's own name when it is not
    /// the group's name, else `None`.
    pub fn variation(&self) -> Option<&str> {
        (self.name_zh != self.group_zh).then_some(self.name_zh)
    }
}
