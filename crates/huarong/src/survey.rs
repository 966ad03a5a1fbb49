//! Survey of every legal layout (stub, filled in below).
