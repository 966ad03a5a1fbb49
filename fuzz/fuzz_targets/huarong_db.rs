#![no_main]
//! Any bytes as a survey database file (`qi huarong lookup`, `random`, `hardest`): reading the
//! header, a piece set's distances and a layout's distance returns a value or an error, never
//! panics or allocates more than the file could hold.

use huarong::database::Database;
use huarong::Layout;
use libfuzzer_sys::fuzz_target;
use std::io::Cursor;

fuzz_target!(|data: &[u8]| {
    let mut file = Cursor::new(data);
    let Ok(database) = Database::read_header(&mut file) else { return };
    // A small piece set (C+1V+0H+1S) so that the lookup's enumeration stays cheap.
    let layout: Layout = "SV../.V../CC../CC../....".parse().unwrap();
    let _ = database.lookup(&mut file, layout);
    // The per-distance counts of the header never exceed the set's layouts.
    for (i, &(_, count)) in database.sets.iter().enumerate() {
        assert!(database.layouts_at(i, &(0..=254)) <= u64::from(count));
    }
    for &(set, count) in database.sets.iter().take(8) {
        if count as usize <= data.len() {
            if let Ok(Some(bytes)) = database.read_set(&mut file, set) {
                assert_eq!(bytes.len(), count as usize);
            }
        }
    }
});
