//! A colour on every wire of the rooms (JSON messages, the bus, the stores): its name is
//! [`xiangqi::Color::name`] (`"red"`, `"black"`), read back with [`xiangqi::Color::from_name`].
//! These are the serde adapters for fields that hold a colour or a seat.

/// A colour as `"red"` or `"black"` (`#[serde(with = "crate::colour::color_name")]`).
pub(crate) mod color_name {
    use serde::{Deserializer, Serializer};
    use xiangqi::Color;

    pub fn serialize<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
        super::seat_name::serialize(&Some(*c), s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        super::seat_name::deserialize(d)?.ok_or_else(|| serde::de::Error::custom("a colour"))
    }
}

/// A seat as `"red"`, `"black"` or `null` (`#[serde(with = "crate::colour::seat_name")]`).
pub(crate) mod seat_name {
    use serde::{Deserialize, Deserializer, Serializer};
    use xiangqi::Color;

    pub fn serialize<S: Serializer>(seat: &Option<Color>, s: S) -> Result<S::Ok, S::Error> {
        match seat {
            Some(c) => s.serialize_str(c.name()),
            None => s.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Color>, D::Error> {
        match Option::<String>::deserialize(d)? {
            None => Ok(None),
            Some(name) => match Color::from_name(&name) {
                Some(c) => Ok(Some(c)),
                None => Err(serde::de::Error::custom(format!("bad seat {name:?}"))),
            },
        }
    }
}
