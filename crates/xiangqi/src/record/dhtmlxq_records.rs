//! DhtmlXQ's movelist of records (dpxq.com's second version, which its editor writes and
//! myxiangqi.com's pages carry): one record per move, the whole tree in one field.
//!
//! A record is the move's four digits, three characters of the editor's own (the last of
//! them `X`, `Y` or `Z`, which is how records are told apart), one more, then the number of a
//! record: its own place (counted from 0) when the move continues the line, or the place of
//! the record it is an alternative to, which starts a new branch. The viewer turns them into
//! the usual `movelist`, `move_P_S_N` and `commentB_S` fields; this module does the same.

/// A movelist of records turned into the usual fields.
#[derive(Debug, Default)]
pub(super) struct Records {
    /// The main line, four digits a move.
    pub main: String,
    /// Each branch: parent branch, the ply its first move replaces, its number, its moves.
    pub branches: Vec<(usize, usize, usize, String)>,
    /// For each record, the branch and ply it became: `commentN` belongs after record `N - 1`.
    pub places: Vec<(usize, usize)>,
}

/// Whether a movelist's text (letters and digits only) is made of records.
pub(super) fn is_records(list: &str) -> bool {
    list.bytes().any(|b| !b.is_ascii_digit()) && starts(list).first() == Some(&0)
}

/// Where each record starts: at each first run of six characters then `X`, `Y` or `Z`, read
/// from the left without overlap (the viewer's own split).
fn starts(list: &str) -> Vec<usize> {
    let b = list.as_bytes();
    let mut out = Vec::new();
    let mut j = 0;
    while j + 7 <= b.len() {
        if matches!(b[j + 6], b'X' | b'Y' | b'Z' | b'x' | b'y' | b'z') {
            out.push(j);
            j += 7;
        } else {
            j += 1;
        }
    }
    out
}

/// Turns a movelist of records (letters and digits only) into the main line and branches.
///
/// # Errors
///
/// The record's place (from 0) and text when its number is missing or points at a later
/// record.
pub(super) fn read(list: &str) -> Result<Records, (usize, String)> {
    let s = starts(list);
    let mut out = Records { main: String::new(), branches: Vec::new(), places: Vec::with_capacity(s.len()) };
    // Each branch's parent (branch, ply) and moves; branch 0 is the main line.
    let mut parents: Vec<(usize, usize)> = vec![(0, 1)];
    let mut moves: Vec<String> = vec![String::new()];
    let mut ply = 0;
    for (i, &start) in s.iter().enumerate() {
        let record = &list[start..s.get(i + 1).copied().unwrap_or(list.len())];
        let mv = record.get(..4).unwrap_or(record);
        let number: Option<usize> = record
            .get(8..)
            .map(|r| {
                r.bytes()
                    .take_while(u8::is_ascii_digit)
                    .fold(0usize, |n, d| n.saturating_mul(10).saturating_add(usize::from(d - b'0')))
            })
            .filter(|_| record.as_bytes().get(8).is_some_and(u8::is_ascii_digit));
        match number {
            Some(n) if n == i => {
                ply += 1;
                moves.last_mut().expect("branch 0 is there").push_str(mv);
            }
            Some(n) if n < i => {
                let (branch, at) = out.places[n];
                // An alternative to a branch's first move hangs where that branch does.
                let parent = if n > 0 && out.places[n - 1].0 == branch { (branch, at) } else { parents[branch] };
                parents.push(parent);
                moves.push(mv.to_string());
                ply = at;
            }
            _ => return Err((i, record.to_string())),
        }
        out.places.push((moves.len() - 1, ply));
    }
    let mut moves = moves.into_iter();
    out.main = moves.next().unwrap_or_default();
    out.branches = moves.enumerate().map(|(k, m)| (parents[k + 1].0, parents[k + 1].1, k + 1, m)).collect();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_of_records_is_its_moves() {
        let r = read("77479EZK000010222FXH0001").unwrap();
        assert_eq!(r.main, "77471022");
        assert!(r.branches.is_empty());
        assert_eq!(r.places, [(0, 1), (0, 2)]);
    }

    #[test]
    fn a_record_numbered_back_starts_a_branch() {
        // h2e2 h9g7 h0g2, then b2e2 in place of the first move, then h9g7 after it.
        let r = read("77479EZK000070622RXP000179672EXG000217479EZK000070622RXP0004").unwrap();
        assert_eq!(r.main, "774770627967");
        assert_eq!(r.branches, [(0, 1, 1, "17477062".to_string())]);
        assert_eq!(r.places[3..], [(1, 1), (1, 2)]);
    }

    #[test]
    fn a_number_ahead_is_an_error() {
        assert!(is_records("77479EZK0005"));
        assert_eq!(read("77479EZK0005").unwrap_err(), (0, "77479EZK0005".to_string()));
        assert!(read("77479EZK").is_err());
        assert!(!is_records("77477062"));
    }

    #[test]
    fn a_record_number_too_long_for_a_usize_is_an_error_not_an_overflow() {
        // Found by the dhtmlxq fuzz target: the number saturated, then one more digit overflowed.
        let long = format!("77479EZK{}", "9".repeat(40));
        assert_eq!(read(&long).unwrap_err().0, 0);
    }
}
