//! Survey figures: the 横刀立马 piece set, the hardest five-general layout, classics vs. database.

use huarong::catalog::classics;
use huarong::distance::UNSOLVABLE;
use huarong::survey::SetSurvey;
use huarong::{Layout, PieceSet};
use std::collections::HashMap;

#[test]
fn heng_dao_li_ma_piece_set() {
    let survey = SetSurvey::run(PieceSet { vertical: 4, horizontal: 1, soldiers: 4 });
    assert_eq!(survey.index.len(), 65_880);
    assert_eq!(survey.groups, 898);
    let start: Layout = "VCCV/VCCV/VHHV/VSSV/S..S".parse().unwrap();
    assert_eq!(survey.distance_of(start), Some(81));
}

#[test]
fn hardest_five_general_layout_needs_138_steps() {
    let mut hardest = 0;
    let mut at = Vec::new();
    for vertical in 0..=5 {
        let survey = SetSurvey::run(PieceSet { vertical, horizontal: 5 - vertical, soldiers: 4 });
        if let Some((steps, layouts)) = survey.hardest() {
            if steps > hardest {
                hardest = steps;
                at = layouts;
            }
        }
    }
    assert_eq!(hardest, 138);
    let feng_hui_lu_zhuan: Layout = "SSSV/CCVV/CCVV/.HHV/.SHH".parse().unwrap();
    assert!(at.contains(&feng_hui_lu_zhuan), "{at:?}");
}

#[test]
fn survey_distances_agree_with_every_classic() {
    let mut surveys: HashMap<PieceSet, SetSurvey> = HashMap::new();
    for classic in classics() {
        let set = classic.layout.piece_set();
        let survey = surveys.entry(set).or_insert_with(|| SetSurvey::run(set));
        let expected = classic.piece.map_or(UNSOLVABLE, |s| s as u8);
        assert_eq!(survey.distance_of(classic.layout), Some(expected), "{}", classic.name);
    }
}

#[test]
fn enumeration_counts_every_legal_layout() {
    assert_eq!(huarong::enumerate::count_all_layouts(), huarong::enumerate::TOTAL_LAYOUTS);
    assert_eq!(huarong::enumerate::TOTAL_LAYOUTS, 29_334_498);
}

/// The whole survey (a few seconds in a release build): every total agrees with an
/// independent checker and with HRD_Database's published tables.
#[test]
fn full_survey() {
    let survey = huarong::survey::Survey::run(&|_| {});
    assert_eq!(survey.layouts(), 29_334_498);
    assert_eq!(survey.database.distances.len(), 29_334_498);
    assert_eq!(survey.groups(), 25_422);
    assert_eq!(survey.sets.iter().map(|s| s.solvable_groups).sum::<usize>(), 1_981);
    assert_eq!(survey.solvable(), 28_913_089);
    let hardest = survey.sets.iter().filter_map(|s| s.hardest).map(|h| h.0).max();
    assert_eq!(hardest, Some(138));
}
