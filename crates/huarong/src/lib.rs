//! Huarong Dao (华容道): layouts on the seed's 64-bit code and an optimal solver.
