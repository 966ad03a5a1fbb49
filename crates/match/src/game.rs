//! One game between the two engines.

use crate::process::{EngineProcess, Fault, Go, Reply};
use crate::{Control, Interrupt, Opening, Settings};
use std::time::{Duration, Instant};
use xiangqi::outcome::{Game, Outcome};
use xiangqi::pgn::PgnGame;
use xiangqi::Color;

/// How one game ended.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The game's number, from 0; the first engine is Red in even games.
    pub index: usize,
    /// From the first engine's view: 1, 0.5 or 0.
    pub points_first: f64,
    /// The PGN result: `1-0`, `0-1` or `1/2-1/2`.
    pub result: &'static str,
    /// Why it ended: the rules' reason (`checkmate`), or what an engine did, after its name
    /// (`mute lost on time`).
    pub termination: String,
    /// The game as PGN text (ICCS moves, engine moves commented), ending in a blank line.
    pub pgn: String,
    /// Depth of each of the first and second engine's moves.
    pub depths: [Vec<u32>; 2],
    /// Nodes of each of the first and second engine's moves.
    pub nodes: [Vec<u64>; 2],
    /// Time the first and second engine spent thinking.
    pub think: [Duration; 2],
}

/// A move's PGN comment as cutechess writes it: score (side to move's view) / depth and the
/// time taken, e.g. `+0.35/12 0.100s`.
fn move_comment(reply: &Reply) -> String {
    let seconds = format!("{:.3}s", reply.elapsed.as_secs_f64());
    match (reply.score, reply.depth) {
        (Some(score), Some(depth)) => format!("{score}/{depth} {seconds}"),
        _ => seconds,
    }
}

/// Plays game `index`: the first engine is Red in even games. `None` when `interrupt` stops
/// it before it ends.
pub(crate) fn play_game(
    setup: &Settings,
    names: &[String],
    opening: &Opening,
    index: usize,
    interrupt: &Interrupt,
) -> Option<Finished> {
    let first_is_red = index.is_multiple_of(2);
    // seat[c]: which engine (0 first, 1 second) plays colour c (0 Red, 1 Black).
    let seat = if first_is_red { [0, 1] } else { [1, 0] };
    let mut game = Game::from_moves(opening.start.clone(), &opening.moves, setup.rules).expect("openings are checked");
    let mut depths = [Vec::new(), Vec::new()];
    let mut nodes = [Vec::new(), Vec::new()];
    let mut think = [Duration::ZERO; 2];
    // One comment per engine move (the opening's moves have none).
    let mut comments: Vec<String> = Vec::new();
    let (mut clock, inc) = match setup.control {
        Control::Clock { base, inc } => ([base, base], inc),
        _ => ([Duration::ZERO; 2], Duration::ZERO),
    };
    let mut engines: Vec<Option<EngineProcess>> = Vec::new();
    let mut failed_start = None;
    for (i, spec) in setup.engines.iter().enumerate() {
        match EngineProcess::start(spec).and_then(|mut e| e.new_game().map(|_| e)) {
            Ok(e) => engines.push(Some(e)),
            Err(_) => {
                engines.push(None);
                failed_start.get_or_insert(i);
            }
        }
    }
    let (outcome, termination) = 'game: {
        if let Some(i) = failed_start {
            let color = if seat[0] == i { Color::Red } else { Color::Black };
            break 'game (Outcome::win(color.other()), "engine failed to start".to_string());
        }
        loop {
            if interrupt.is_stopped() {
                return None;
            }
            let status = game.status();
            if status.is_over() {
                break 'game (status.outcome, status.reason.map_or("over".into(), |r| r.name().to_string()));
            }
            if setup.max_plies > 0 && game.moves().len() >= setup.max_plies {
                break 'game (Outcome::Draw, "adjudicated: ply limit".into());
            }
            let turn = game.position().turn();
            let who = seat[turn.index()];
            let engine = engines[who].as_mut().expect("engines started");
            let (go, allowed) = match setup.control {
                Control::MoveTime(t) => (Go::MoveTime(t), t + setup.margin),
                Control::Nodes(n) => (Go::Nodes(n), setup.move_timeout),
                Control::Clock { .. } => {
                    (Go::Clock { red: clock[0], black: clock[1], inc }, clock[turn.index()] + setup.margin)
                }
            };
            let lose = |why: String| (Outcome::win(turn.other()), format!("{} {why}", names[who]));
            let reply = match engine.best_move(game.start(), game.moves(), go, Instant::now() + allowed) {
                Ok(r) => r,
                Err(Fault::Timeout) => break 'game lose("lost on time".into()),
                Err(Fault::Crashed) => break 'game lose("crashed".into()),
                Err(Fault::Unreadable(t)) => break 'game lose(format!("sent an unreadable move {t:?}")),
            };
            think[who] += reply.elapsed;
            depths[who].extend(reply.depth);
            nodes[who].extend(reply.nodes);
            if let Control::Clock { .. } = setup.control {
                let c = &mut clock[turn.index()];
                if reply.elapsed > *c + setup.margin {
                    break 'game lose("lost on time".into());
                }
                *c = c.saturating_sub(reply.elapsed) + inc;
            } else if let Control::MoveTime(_) = setup.control {
                if reply.elapsed > allowed {
                    break 'game lose("lost on time".into());
                }
            }
            let Some(m) = reply.mv else { break 'game lose("gave no move".into()) };
            if game.play(m).is_err() {
                break 'game lose(format!("played an illegal move {}", reply.text));
            }
            comments.push(move_comment(&reply));
        }
    };
    drop(engines);
    // Every way out of the loop above decides the game: never `*`.
    let result = outcome.pgn_result();
    let points_red = match outcome {
        Outcome::RedWins => 1.0,
        Outcome::BlackWins => 0.0,
        _ => 0.5,
    };
    let points_first = if first_is_red { points_red } else { 1.0 - points_red };
    let mut pgn = PgnGame::new(opening.start.clone(), game.moves());
    let engine_moves = pgn.line.moves.len() - comments.len();
    for (m, c) in pgn.line.moves[engine_moves..].iter_mut().zip(comments) {
        m.comment = Some(c);
    }
    pgn.set_tag("Event", "qi match");
    pgn.set_tag("Round", &(index + 1).to_string());
    pgn.set_tag("Red", &names[seat[0]]);
    pgn.set_tag("Black", &names[seat[1]]);
    pgn.set_tag("Opening", &opening.name);
    pgn.set_tag("Termination", &termination);
    pgn.set_tag("PlyCount", &game.moves().len().to_string());
    pgn.result = Some(result.to_string());
    let text = pgn.write(xiangqi::notation::Notation::Iccs) + "\n";
    // Reasons are counted without the engine's name when the rules decided.
    Some(Finished { index, points_first, result, termination, pgn: text, depths, nodes, think })
}
