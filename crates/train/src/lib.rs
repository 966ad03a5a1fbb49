#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod data_file;
pub mod datagen;
pub mod model;
pub mod record;
pub mod samples;
pub mod trainer;
